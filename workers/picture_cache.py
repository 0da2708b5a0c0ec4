"""Board pictures for emails, each drawn once for all the emails that show it.

A picture is kept under its key, a digest of what it shows (service/pictures.py): the
players who see one position the same way get the very same PNG, and a player never
gets a picture made from another player's view. PNGs are kept twice: the last few in
this process, and in Redis for a few minutes, shared by every mailer process (the
emails of one move are sent at the same moment, by whichever processes are free).
Redis is only a shortcut: when it cannot be reached the picture is drawn anew, the
email goes, and Redis is left alone for a while rather than waited for on each email.
"""
from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from functools import lru_cache
from typing import cast

import redis

from service.pictures import BoardPicture

log = logging.getLogger(__name__)

KEPT_IN_PROCESS = 32  # about 40 KB each
REDIS_PAUSE_SECONDS = 10.0  # after a Redis failure, pictures are drawn without asking it


class PictureCache:
    """PNG bytes by picture key; `renders` counts the pictures this process drew."""

    def __init__(self, redis_url: str | None, prefix: str, seconds: float):
        self.client = (redis.Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=1)
                       if redis_url else None)
        self.prefix, self.seconds = prefix, max(1, round(seconds))
        self.renders = 0
        self._kept: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self._redis_paused_until = 0.0

    def png(self, picture: BoardPicture) -> bytes:
        key = picture.key()
        png = self._kept_png(key)
        if png is None:
            png = self._shared_png(key)
        if png is None:
            png = picture.png()
            with self._lock:
                self.renders += 1
            self._share(key, png)
        self._keep(key, png)
        return png

    def _kept_png(self, key: str) -> bytes | None:
        with self._lock:
            png = self._kept.get(key)
            if png is not None:
                self._kept.move_to_end(key)
            return png

    def _keep(self, key: str, png: bytes) -> None:
        with self._lock:
            self._kept[key] = png
            self._kept.move_to_end(key)
            while len(self._kept) > KEPT_IN_PROCESS:
                self._kept.popitem(last=False)

    def _shared_png(self, key: str) -> bytes | None:
        client = self._usable_redis()
        if client is None:
            return None
        try:
            return cast(bytes | None, client.get(self.prefix + key))  # the client is made without decode_responses
        except redis.RedisError as err:
            self._pause_redis(err)
            return None

    def _share(self, key: str, png: bytes) -> None:
        client = self._usable_redis()
        if client is None:
            return
        try:
            client.set(self.prefix + key, png, ex=self.seconds)
        except redis.RedisError as err:
            self._pause_redis(err)

    def _usable_redis(self) -> redis.Redis | None:
        """The Redis client, unless there is none or it is paused after a failure."""
        return self.client if time.monotonic() >= self._redis_paused_until else None

    def _pause_redis(self, err: Exception) -> None:
        self._redis_paused_until = time.monotonic() + REDIS_PAUSE_SECONDS
        log.warning("board pictures are drawn without Redis for %.0f s: %s", REDIS_PAUSE_SECONDS, err)


@lru_cache(maxsize=4)
def picture_cache(redis_url: str | None, queue: str, seconds: float) -> PictureCache:
    """This process's cache for the service named by these settings."""
    return PictureCache(redis_url, f"{queue}:picture:", seconds)


def cache_for(settings) -> PictureCache:
    return picture_cache(settings.redis_url, settings.queue, settings.picture_cache_seconds)
