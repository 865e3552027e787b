resource "tributary_token" "ci" {
  project    = tributary_project.analytics.name
  name       = "ci pipeline"
  role       = "editor" # viewer, editor or admin; changing it replaces the token
  expires_at = "2027-12-31T00:00:00Z"
}

# the secret is known only to the apply that created the token
output "ci_token" {
  value     = tributary_token.ci.secret
  sensitive = true
}
