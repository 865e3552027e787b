# needs the server's administrator token
resource "tributary_project" "analytics" {
  name = "analytics"
}
