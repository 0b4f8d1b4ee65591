"""The judge at work: the daemon (``judge serve``), its SMTP listener, its deadline workers, and the use
cases they call (`app`)."""
