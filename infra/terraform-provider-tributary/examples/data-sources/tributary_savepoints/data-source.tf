data "tributary_savepoints" "clicks" {
  project = "analytics"
  job     = "clicks-per-user"
}

output "latest_savepoint" {
  value = data.tributary_savepoints.clicks.latest # for example sp-12
}
