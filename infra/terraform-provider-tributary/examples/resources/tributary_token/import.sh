# a token is imported as <project>/<token id>; its secret cannot be recovered (it stays null)
terraform import tributary_token.ci analytics/tok_8f3a2c
