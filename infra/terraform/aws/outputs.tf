output "region" {
  description = "The region of the bucket and the table: chart value region."
  value       = data.aws_region.current.name
}

output "bucket" {
  description = "Name of the state bucket."
  value       = aws_s3_bucket.state.id
}

output "object_store_url" {
  description = "tributary.object-store: chart value config.objectStore."
  value       = "s3://${aws_s3_bucket.state.id}/${var.object_prefix}"
}

output "table_name" {
  description = "tributary.metadata.dynamodb.table: chart value config.metadata.dynamodb.table."
  value       = aws_dynamodb_table.metadata.name
}

output "table_arn" {
  description = "ARN of the metadata table."
  value       = aws_dynamodb_table.metadata.arn
}

output "server_role_arn" {
  description = "IAM role of the server pods: chart value server.serviceAccount.roleArn."
  value       = aws_iam_role.server.arn
}

output "worker_role_arn" {
  description = "IAM role of the worker pods: chart value workers.serviceAccount.roleArn."
  value       = aws_iam_role.worker.arn
}

output "helm_values" {
  description = "The chart values these resources determine, as YAML: tofu output -raw helm_values > values-infra.yaml, then helm install ... -f values-infra.yaml."
  value = yamlencode({
    region = data.aws_region.current.name
    config = {
      objectStore = "s3://${aws_s3_bucket.state.id}/${var.object_prefix}"
      metadata = {
        store    = "dynamodb"
        dynamodb = { table = aws_dynamodb_table.metadata.name }
      }
    }
    server = {
      serviceAccount = { name = var.server_service_account, roleArn = aws_iam_role.server.arn }
    }
    workers = {
      serviceAccount = { name = var.worker_service_account, roleArn = aws_iam_role.worker.arn }
    }
  })
}
