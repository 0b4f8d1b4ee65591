"""What the tests share: one harness (`harness.Judge`, a judge fed mails in-process), one SMTP relay
(`relay.Relay`), one clock (`clock.Clock`), one wait (`wait.wait_until`), a daemon on a thread
(`daemon.Running`), the people of the tests (`people`), and the fixtures every test may ask for
(`fixtures`, loaded as a pytest plugin by tests/conftest.py).  No test module imports another."""
