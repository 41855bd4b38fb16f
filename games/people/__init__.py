"""Tables for people: several people at one table, the empty seats computer players.
``service`` makes every change, ``views`` parse, authorize, call it and render."""
