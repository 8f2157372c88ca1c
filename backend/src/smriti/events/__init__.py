"""Events: every change to a Space as a durable, numbered log (SYSTEM.md §14).

The one way in for every domain is `record.record` (or `record.record_orm` on an ORM session, or
`record.EVENT_INSERT_SQL` inside a statement of its own), called in the change's transaction.
"""
