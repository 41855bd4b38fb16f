"""The site's password hashers (``PASSWORD_HASHERS`` in the settings).

A password a person chooses may be guessed from a list, so its hash must be slow for whoever
steals it: Argon2id with OWASP's parameters (about 40 ms of one core, 19 MiB, where PBKDF2 at
Django's 1,000,000 rounds costs 0.6 s; a class of 40 logging in at once no longer queues for
half a minute).

The one-time password a teacher is shown for an account he made is not chosen: it is random
(:func:`lessons.classes.models.new_password`, about 60 bits), so no list helps, and trying
2**59 of them is out of reach at any cost per try worth the name. It is hashed with a few
thousand PBKDF2 rounds, so that a class of 100 is made in a fraction of a second, in one
request, without holding up anyone else. It is used for one login only: Django then hashes it
again with the first hasher (Argon2, once, outside any transaction), and the student must
choose his own password before going on (lessons.classes.middleware).
"""

from __future__ import annotations

from django.contrib.auth.hashers import (
    Argon2PasswordHasher,
    PBKDF2PasswordHasher,
    make_password,
)


class OwaspArgon2PasswordHasher(Argon2PasswordHasher):
    """Argon2id at OWASP's recommended minimum (m=19 MiB, t=2, p=1). Its algorithm name is
    Argon2's own, so hashes made with Django's defaults still verify (and are made again with
    these parameters at the next login)."""

    time_cost = 2
    memory_cost = 19456
    parallelism = 1


class OneTimePasswordHasher(PBKDF2PasswordHasher):
    """For the random one-time passwords of accounts a teacher made, and nothing else: a
    name of its own, so that it is never mistaken for a hash of a chosen password."""

    algorithm = "pbkdf2_sha256_once"
    iterations = 2000

    def verify(self, password: str, encoded: str) -> bool:
        """Whether ``password`` is the one hashed; a wrong one costs a hash by the first
        hasher, as it would for any other account. The right one costs the same, as Django
        then hashes it again with that hasher: how long a login takes does not tell whether
        an account still has the password its teacher was shown."""
        right = super().verify(password, encoded)
        if not right:
            make_password(password)
        return right


#: The hasher that :func:`one_time_hash` uses, by its algorithm name.
ONE_TIME = OneTimePasswordHasher.algorithm


def one_time_hash(password: str) -> str:
    """The stored form of a one-time password (to be set as ``user.password``). Call it
    outside any transaction: a hash, however cheap, is never made while a write lock is held."""
    return make_password(password, hasher=ONE_TIME)
