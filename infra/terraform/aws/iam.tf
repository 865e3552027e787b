# IAM roles for the chart's ServiceAccounts (IAM roles for service accounts: the pods get web
# identity credentials, which the AWS SDK's default chain picks up). Least privilege, from what the
# code calls:
#
# - S3 (state-forst/.../store/S3ObjectStore.java): PutObject (also the conditional If-None-Match
#   put), GetObject (also ranged), HeadObject, CopyObject (GetObject on the source, PutObject on the
#   target), DeleteObject under <object_prefix>/, ListObjectsV2 (s3:ListBucket) on the bucket. Files go up
#   in single PUTs, so no multipart permissions. Workers need the same: they run the state backends,
#   which upload, copy (restoring from a savepoint) and delete (releasing a failed snapshot) files.
# - DynamoDB (scheduler/.../metadata/dynamo/DynamoMetadataStore.java): GetItem, PutItem and
#   DeleteItem (conditional), Query; DescribeTable and CreateTable only with allow_create_table.
#   The server only: workers never touch the metadata store.

locals {
  oidc_issuer = trimprefix(var.oidc_provider_url, "https://")
  s3_objects  = "${aws_s3_bucket.state.arn}/${local.key_prefix}*"
}

data "aws_iam_policy_document" "assume" {
  for_each = {
    server = var.server_service_account
    worker = var.worker_service_account
  }

  statement {
    effect  = "Allow"
    actions = ["sts:AssumeRoleWithWebIdentity"]
    principals {
      type        = "Federated"
      identifiers = [var.oidc_provider_arn]
    }
    condition {
      test     = "StringEquals"
      variable = "${local.oidc_issuer}:sub"
      values   = ["system:serviceaccount:${var.namespace}:${each.value}"]
    }
    condition {
      test     = "StringEquals"
      variable = "${local.oidc_issuer}:aud"
      values   = ["sts.amazonaws.com"]
    }
  }
}

data "aws_iam_policy_document" "objects" {
  # Without a condition on s3:prefix: S3 answers a GET or HEAD of a missing key with 404 only to a
  # caller that may list the bucket (else 403), and the store takes 404 to mean "absent" (reading a
  # savepoint's files, exists, a retried conditional put). The bucket holds nothing but Tributary's.
  statement {
    sid       = "ListTheBucket"
    effect    = "Allow"
    actions   = ["s3:ListBucket"]
    resources = [aws_s3_bucket.state.arn]
  }

  statement {
    sid       = "ReadWriteDeleteObjects"
    effect    = "Allow"
    actions   = ["s3:GetObject", "s3:PutObject", "s3:DeleteObject"]
    resources = [local.s3_objects]
  }

  dynamic "statement" {
    for_each = var.kms_key_arn == null ? [] : [var.kms_key_arn]
    content {
      sid       = "UseTheBucketKey"
      effect    = "Allow"
      actions   = ["kms:Decrypt", "kms:GenerateDataKey"]
      resources = [statement.value]
    }
  }
}

data "aws_iam_policy_document" "metadata" {
  statement {
    sid       = "MetadataStore"
    effect    = "Allow"
    actions   = ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:DeleteItem", "dynamodb:Query"]
    resources = [aws_dynamodb_table.metadata.arn]
  }

  dynamic "statement" {
    for_each = var.allow_create_table ? [1] : []
    content {
      sid       = "CreateTheTable"
      effect    = "Allow"
      actions   = ["dynamodb:DescribeTable", "dynamodb:CreateTable"]
      resources = [aws_dynamodb_table.metadata.arn]
    }
  }
}

resource "aws_iam_role" "server" {
  name               = "${var.name}-server"
  description        = "Tributary server pods (ServiceAccount ${var.namespace}/${var.server_service_account}): the state bucket and the metadata table"
  assume_role_policy = data.aws_iam_policy_document.assume["server"].json
  tags               = var.tags
}

resource "aws_iam_role" "worker" {
  name               = "${var.name}-worker"
  description        = "Tributary worker pods (ServiceAccount ${var.namespace}/${var.worker_service_account}): the state bucket only"
  assume_role_policy = data.aws_iam_policy_document.assume["worker"].json
  tags               = var.tags
}

resource "aws_iam_role_policy" "server_objects" {
  name   = "${var.name}-objects"
  role   = aws_iam_role.server.id
  policy = data.aws_iam_policy_document.objects.json
}

resource "aws_iam_role_policy" "server_metadata" {
  name   = "${var.name}-metadata"
  role   = aws_iam_role.server.id
  policy = data.aws_iam_policy_document.metadata.json
}

resource "aws_iam_role_policy" "worker_objects" {
  name   = "${var.name}-objects"
  role   = aws_iam_role.worker.id
  policy = data.aws_iam_policy_document.objects.json
}
