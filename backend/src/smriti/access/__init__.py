"""Who is asking, and what they may reach (SYSTEM.md §13): the one home of agent keys, the
person's token, and the checks every domain makes through `caller.py`."""
