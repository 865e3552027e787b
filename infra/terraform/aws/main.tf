# Durable state of a Tributary deployment on AWS: an S3 bucket (checkpoints, savepoints, state
# files: tributary.object-store) and a DynamoDB table (the metadata store and the leader lease:
# tributary.metadata.dynamodb.table). IAM roles for the chart's ServiceAccounts are in iam.tf.

data "aws_caller_identity" "current" {}
data "aws_partition" "current" {}
data "aws_region" "current" {}

locals {
  bucket_name = var.bucket_name != "" ? var.bucket_name : "${var.name}-state-${data.aws_caller_identity.current.account_id}"
  # the server's S3ObjectStore keys every object <object_prefix>/<name>
  key_prefix = "${var.object_prefix}/"
}

resource "aws_s3_bucket" "state" {
  bucket        = local.bucket_name
  force_destroy = var.force_destroy
  tags          = var.tags
}

resource "aws_s3_bucket_ownership_controls" "state" {
  bucket = aws_s3_bucket.state.id
  rule {
    object_ownership = "BucketOwnerEnforced"
  }
}

resource "aws_s3_bucket_public_access_block" "state" {
  bucket                  = aws_s3_bucket.state.id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}

resource "aws_s3_bucket_server_side_encryption_configuration" "state" {
  bucket = aws_s3_bucket.state.id
  rule {
    apply_server_side_encryption_by_default {
      sse_algorithm     = var.kms_key_arn == null ? "AES256" : "aws:kms"
      kms_master_key_id = var.kms_key_arn
    }
    bucket_key_enabled = var.kms_key_arn != null
  }
}

resource "aws_s3_bucket_versioning" "state" {
  bucket = aws_s3_bucket.state.id
  versioning_configuration {
    # "Disabled" leaves a new bucket unversioned; a bucket that was ever versioned can only be suspended
    status = var.versioning ? "Enabled" : "Disabled"
  }
}

# Only TLS.
data "aws_iam_policy_document" "bucket" {
  statement {
    sid     = "DenyInsecureTransport"
    effect  = "Deny"
    actions = ["s3:*"]
    principals {
      type        = "*"
      identifiers = ["*"]
    }
    resources = [aws_s3_bucket.state.arn, "${aws_s3_bucket.state.arn}/*"]
    condition {
      test     = "Bool"
      variable = "aws:SecureTransport"
      values   = ["false"]
    }
  }
}

resource "aws_s3_bucket_policy" "state" {
  bucket     = aws_s3_bucket.state.id
  policy     = data.aws_iam_policy_document.bucket.json
  depends_on = [aws_s3_bucket_public_access_block.state]
}

# Lifecycle: abort incomplete multipart uploads, and with versioning expire noncurrent versions.
#
# There is deliberately no rule that expires objects by age or under an "orphan" prefix: Tributary
# writes no object to a prefix of its own for garbage. Its garbage collection deletes the files of
# discarded checkpoints and deleted jobs and savepoints directly; the leftovers of a crashed upload
# stay under the job's live <project>--<job>/state/ prefix, with content-derived names, among files
# that retained checkpoints still reference (an SST may stay referenced for as long as the job
# runs, so its age says nothing about whether it is live). An expiry rule could delete live state.
resource "aws_s3_bucket_lifecycle_configuration" "state" {
  bucket = aws_s3_bucket.state.id

  rule {
    id     = "abort-incomplete-multipart-uploads"
    status = "Enabled"
    filter {}
    abort_incomplete_multipart_upload {
      days_after_initiation = var.abort_incomplete_multipart_upload_days
    }
  }

  dynamic "rule" {
    for_each = var.versioning ? [1] : []
    content {
      id     = "expire-noncurrent-versions"
      status = "Enabled"
      filter {}
      noncurrent_version_expiration {
        noncurrent_days = var.noncurrent_version_expiration_days
      }
    }
  }

  depends_on = [aws_s3_bucket_versioning.state]
}

# The metadata store's layout (scheduler/.../metadata/dynamo/DynamoItems.java): partition key
# "group" (a key's first two segments), sort key "key" (the whole key), both strings; each item also
# has "version" (number; every write is conditional on it) and "value" (binary), which need no
# definition. No TTL attribute and no index: the store deletes its items itself.
resource "aws_dynamodb_table" "metadata" {
  name                        = var.table_name
  billing_mode                = "PAY_PER_REQUEST"
  hash_key                    = "group"
  range_key                   = "key"
  deletion_protection_enabled = var.deletion_protection

  attribute {
    name = "group"
    type = "S"
  }

  attribute {
    name = "key"
    type = "S"
  }

  point_in_time_recovery {
    enabled = var.point_in_time_recovery
  }

  # encrypted at rest with an AWS owned key (DynamoDB's default), which needs no KMS permissions

  tags = var.tags
}
