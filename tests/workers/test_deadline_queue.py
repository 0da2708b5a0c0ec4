"""The Redis deadline mirror against the real Redis server."""
import threading

from workers.deadline_queue import DeadlineQueue


def test_pop_due_returns_only_due_deadlines_once(redis_client, key_prefix):
    queue = DeadlineQueue(redis_client, key_prefix)
    queue.add_many([(1, 100.0), (2, 200.0), (3, 300.0)])
    assert queue.pop_due(now=50) == []
    assert queue.pop_due(now=250) == [1, 2]
    assert queue.pop_due(now=250) == []
    assert queue.pop_due(now=1000) == [3] and queue.size() == 0


def test_concurrent_sweepers_never_both_get_a_deadline(redis_client, key_prefix):
    queue = DeadlineQueue(redis_client, key_prefix)
    queue.add_many([(deadline_id, float(deadline_id)) for deadline_id in range(2000)])
    taken: list[list[int]] = [[] for _ in range(4)]

    def sweep(i):
        while True:
            got = queue.pop_due(now=1e9, limit=50)
            if not got:
                return
            taken[i].extend(got)

    threads = [threading.Thread(target=sweep, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    everything = [d for part in taken for d in part]
    assert sorted(everything) == list(range(2000))  # each exactly once


def test_rebuild_after_redis_lost_its_data(redis_client, key_prefix):
    queue = DeadlineQueue(redis_client, key_prefix)
    assert not queue.is_built()
    assert queue.rebuild(lambda: [(7, 10.0), (8, 20.0)]) == 2
    assert queue.is_built()
    for key in redis_client.scan_iter(key_prefix + "*"):
        redis_client.delete(key)  # what FLUSHDB does to our keys
    assert not queue.is_built() and queue.size() == 0
    queue.rebuild(lambda: [(8, 20.0)])
    assert queue.pop_due(now=100) == [8]
