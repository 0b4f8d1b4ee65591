"""A mail in: stored before it is accepted (`intake`), read line by line and each line answered by its
command's handler (`handlers`), the phase it was meant for (`late`) and HELP (`help_topics`)."""
