data "tributary_job" "clicks" {
  project = "analytics"
  name    = "clicks-per-user"
}

output "clicks_state" {
  value = "${data.tributary_job.clicks.observed_state} at parallelism ${data.tributary_job.clicks.parallelism}"
}

output "clicks_sources" {
  value = keys(jsondecode(data.tributary_job.clicks.spec).sources)
}
