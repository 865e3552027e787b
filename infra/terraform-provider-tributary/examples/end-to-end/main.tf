# A project, a CI token and a job, managed end to end (see the repository's README, "Terraform").
terraform {
  required_providers {
    tributary = {
      source = "tributary/tributary"
    }
  }
}

provider "tributary" {} # $TRIBUTARY_SERVER and $TRIBUTARY_TOKEN (the administrator token)

resource "tributary_project" "analytics" {
  name = "analytics"
}

resource "tributary_token" "ci" {
  project = tributary_project.analytics.name
  name    = "ci pipeline"
  role    = "editor"
}

resource "tributary_job" "live_auctions" {
  project = tributary_project.analytics.name
  name    = "live-auctions"
  spec    = file("${path.module}/live-auctions.yaml")
}

data "tributary_savepoints" "live_auctions" {
  project    = tributary_project.analytics.name
  job        = tributary_job.live_auctions.name
  depends_on = [tributary_job.live_auctions]
}

output "job" {
  value = "${tributary_job.live_auctions.observed_state}, version ${tributary_job.live_auctions.version}"
}

output "latest_savepoint" {
  value = data.tributary_savepoints.live_auctions.latest
}

output "ci_token" {
  value     = tributary_token.ci.secret
  sensitive = true
}
