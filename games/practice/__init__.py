"""The practice table: one person against computer players, with take-backs, the coach and a
lesson's guided hands. ``service`` holds its rules, ``views`` parse, authorize, call the
service and render, ``presenting`` builds the page's practice parts."""
