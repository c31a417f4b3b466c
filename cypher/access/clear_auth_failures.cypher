// A subject authenticated: its failures are forgotten on every server.
MATCH (f:AuthFailures {subject: $subject})
DELETE f
