"""A mail out: queued in the transaction of the change that causes it (`outbox`), and sent (`sender`)."""
