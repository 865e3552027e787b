# a project is imported by its name
terraform import tributary_project.analytics analytics
