# a job is imported as <project>/<name>
terraform import tributary_job.clicks_per_user analytics/clicks-per-user
