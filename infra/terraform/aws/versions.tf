terraform {
  # OpenTofu 1.6 or Terraform 1.6 and later
  required_version = ">= 1.6.0"

  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.40.0, < 7.0.0"
    }
  }
}
