variable "name" {
  description = "Prefix of the names of the IAM roles and policies (and of the bucket when bucket_name is empty)."
  type        = string
  default     = "tributary"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{0,30}$", var.name))
    error_message = "name must be lower-case letters, digits and dashes, 31 characters at most, starting with a letter."
  }
}

variable "bucket_name" {
  description = "Name of the S3 bucket for checkpoints, savepoints and state files. Empty: <name>-state-<account id>."
  type        = string
  default     = ""
}

variable "object_prefix" {
  description = "Key prefix of Tributary's objects in the bucket (the path of tributary.object-store, s3://<bucket>/<object_prefix>). The IAM policies grant access under it only."
  type        = string
  default     = "tributary"

  validation {
    condition     = can(regex("^[A-Za-z0-9][A-Za-z0-9._-]*(/[A-Za-z0-9][A-Za-z0-9._-]*)*$", var.object_prefix))
    error_message = "object_prefix must be a non-empty key prefix such as tributary or teams/a, without leading or trailing slashes."
  }
}

variable "kms_key_arn" {
  description = "ARN of a KMS key for the bucket's default encryption (SSE-KMS, with an S3 bucket key); the roles are then allowed to use it. Null: SSE-S3 (AES-256)."
  type        = string
  default     = null
}

variable "force_destroy" {
  description = "Whether destroying the bucket also deletes every object in it (checkpoints and savepoints). Keep false outside tests."
  type        = bool
  default     = false
}

variable "versioning" {
  description = "Whether the bucket keeps versions. Off by default: Tributary deletes the files of discarded checkpoints itself (its garbage collection), and with versioning each of those deletes would leave a noncurrent version behind. When on, noncurrent versions expire after noncurrent_version_expiration_days."
  type        = bool
  default     = false
}

variable "noncurrent_version_expiration_days" {
  description = "With versioning on: days after which a deleted or overwritten object's old version is removed."
  type        = number
  default     = 7
}

variable "abort_incomplete_multipart_upload_days" {
  description = "Days after which the lifecycle rule aborts an incomplete multipart upload (and frees its parts). Tributary uploads with single PUTs; this only cleans up after other tools."
  type        = number
  default     = 7

  validation {
    condition     = var.abort_incomplete_multipart_upload_days >= 1
    error_message = "abort_incomplete_multipart_upload_days must be at least 1."
  }
}

variable "table_name" {
  description = "Name of the DynamoDB table of the metadata store (tributary.metadata.dynamodb.table)."
  type        = string
  default     = "tributary"
}

variable "point_in_time_recovery" {
  description = "Whether the table has point-in-time recovery (continuous backups for 35 days)."
  type        = bool
  default     = true
}

variable "deletion_protection" {
  description = "Whether the table is protected from deletion (tofu destroy fails until this is turned off and applied)."
  type        = bool
  default     = true
}

variable "allow_create_table" {
  description = "Whether the server's role may describe and create the table (tributary.metadata.dynamodb.create-table: true). Not needed: this module creates the table."
  type        = bool
  default     = false
}

variable "oidc_provider_arn" {
  description = "ARN of the cluster's IAM OIDC identity provider (IAM roles for service accounts), e.g. arn:aws:iam::123456789012:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLE."
  type        = string
}

variable "oidc_provider_url" {
  description = "Issuer URL of the cluster's OIDC provider, with or without https:// (e.g. oidc.eks.eu-west-1.amazonaws.com/id/EXAMPLE)."
  type        = string
}

variable "namespace" {
  description = "Kubernetes namespace the Helm chart is installed in."
  type        = string
  default     = "tributary"
}

variable "server_service_account" {
  description = "Name of the server's Kubernetes ServiceAccount (chart value server.serviceAccount.name)."
  type        = string
  default     = "tributary-server"
}

variable "worker_service_account" {
  description = "Name of the workers' Kubernetes ServiceAccount (chart value workers.serviceAccount.name)."
  type        = string
  default     = "tributary-worker"
}

variable "tags" {
  description = "Tags of every resource that takes them."
  type        = map(string)
  default     = {}
}
