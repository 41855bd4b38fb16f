"""The live part of the site: telling every open page of a table that the table has moved on.

- :mod:`games.live.bus`: ``publish(channel, version)`` after a table's new version is
  committed, and ``updates(channel, after, current)``, the versions as they come, for one open
  connection; Redis pub/sub when ``REDIS_URL`` is set, otherwise the database, polled.
- :mod:`games.live.sse`: ``stream(...)``, an async view's Server-Sent Events response that
  sends those versions (``event: update``, the version as data and as the event's id) with a
  heartbeat and a hook called on each.

The bus carries version numbers only, never what changed: a page that hears of a new version
asks for the table again, through a view that checks who is asking. So nothing on the bus
needs to be kept from anyone, and a lost or late message costs a refresh, never a wrong page.
"""
