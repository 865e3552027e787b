resource "tributary_job" "clicks_per_user" {
  project = tributary_project.analytics.name
  name    = "clicks-per-user"
  spec    = file("${path.module}/clicks-per-user.yaml") # YAML or JSON; its name may be left out

  desired_state        = "running"   # or "stopped": stops with a savepoint, resumes from it
  parallelism          = 4           # optional: overrides the spec's initial parallelism
  restore              = "savepoint" # how a changed spec is rolled out: savepoint, latest or none
  savepoint_on_destroy = true

  timeouts = {
    create = "10m"
    update = "10m"
  }
}

# A job written as SQL: exactly one of spec and sql. A reformatted or commented text plans no
# change (the server's dry run says whether it means the applied job); errors name their line
# and column.
resource "tributary_job" "hot_items" {
  project = tributary_project.analytics.name
  name    = "hot-items"
  sql     = file("${path.module}/hot-items.sql")
}
