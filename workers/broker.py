"""The Redis broker transport, with one repair: a worker survives losing Redis.

When the broker connection drops while messages are delivered but not yet
acknowledged (a task running under `acks_late`), Celery closes the broken connection
after detaching it from its transport; closing the channel then tries to give those
messages back to Redis through the detached connection and raises AttributeError,
which Celery treats as unrecoverable and the worker exits. Here that attempt fails as
a connection error instead, which Celery ignores before reconnecting. Nothing is lost
by skipping it: Redis still holds the unacknowledged messages and restores them after
their visibility timeout, and the outbox sweep re-sends any email still owed.
"""
from __future__ import annotations

from kombu.transport import redis as kombu_redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous=False):
        if self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
