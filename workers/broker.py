"""The Redis broker transport, with one repair and two savings.

The savings: kombu builds a new Redis client object (on its shared connection pool)
for every message it publishes, which cost about a quarter of a publish's CPU; the
channel here keeps one for its publishes (redis-py clients are thread-safe: each
command takes a connection from the pool). And the channel shows the publish batch it
has open (`open_batch`, kombu's `Producer.batch`), so that the web process sends the
deadline mirror's ZADD in the same Redis pipeline as a commit's tasks.

The repair: a worker survives losing Redis.

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
    _publishing_client = None
    open_batch = None  # the last publish batch opened; its `pipeline` runs at the batch's end

    def create_publish_batch(self, max_size):
        self.open_batch = super().create_publish_batch(max_size)
        return self.open_batch

    def _create_client(self, asynchronous=False):
        if asynchronous:
            return super()._create_client(asynchronous)
        client = self._publishing_client
        if client is None or client.connection_pool is not self.pool:  # the pool is new after a disconnection
            client = self._publishing_client = super()._create_client()
        return client

    def _connparams(self, asynchronous=False):
        if self.connection.client is None:
            raise RedisConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel
