terraform {
  required_providers {
    tributary = {
      source = "tributary/tributary"
    }
  }
}

# endpoint and token default to $TRIBUTARY_SERVER and $TRIBUTARY_TOKEN
provider "tributary" {
  endpoint = "http://localhost:8080"
  project  = "analytics" # the project of resources that name none
}
