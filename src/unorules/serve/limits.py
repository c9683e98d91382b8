"""Rate limits: token buckets, one per connection, per client address and for the whole server.

A bucket holds up to ``burst`` tokens and gains ``rate`` a second; a request
spends one. :class:`AddressBuckets` keeps one bucket per client address, at
most ``max_addresses`` of them (a bucket that has filled up again is the same
as a new one, so those are forgotten first). :class:`CreationLimit` is the
budget of new tables: per address and for the whole server, spent only by a
table actually created (a refused request costs nothing). Server processes that share a
PostgreSQL store share the creation budget too: its buckets are rows of the store
(:meth:`~unorules.serve.store.TableStore.bucket`), spent atomically.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING

from unorules.serve.errors import ServeError

if TYPE_CHECKING:
    from unorules.serve.store import TableStore

__all__ = ["AddressBuckets", "CreationLimit", "RateLimit"]

Clock = Callable[[], float]


class RateLimit:
    """A token bucket: ``rate`` requests a second on average, bursts of ``burst``."""

    def __init__(self, rate: float = 10.0, burst: float = 20.0, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self._clock = clock
        self.stamp = clock()

    def _fill(self) -> None:
        moment = self._clock()
        self.tokens = min(self.burst, self.tokens + (moment - self.stamp) * self.rate)
        self.stamp = moment

    def allow(self) -> bool:
        """Whether one more request may be handled now (and count it)."""
        self._fill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def ready(self) -> bool:
        """Whether one more request may be handled now, without counting it."""
        self._fill()
        return self.tokens >= 1.0

    def spend(self) -> None:
        """Count one request (after :meth:`ready`)."""
        self._fill()
        self.tokens = max(0.0, self.tokens - 1.0)

    def wait(self) -> float:
        """Seconds until one more request may be handled."""
        self._fill()
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.rate

    def full(self) -> bool:
        """Whether the bucket has filled up again (it is then as good as a new one)."""
        self._fill()
        return self.tokens >= self.burst


class AddressBuckets:
    """One :class:`RateLimit` per client address, at most ``max_addresses`` kept."""

    def __init__(
        self, rate: float, burst: float, max_addresses: int = 10000, clock: Clock = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.max_addresses = max_addresses
        self._clock = clock
        self._buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def get(self, address: str) -> RateLimit:
        """The bucket of ``address`` (a new, full one for an address not seen lately)."""
        bucket = self._buckets.get(address)
        if bucket is not None:
            self._buckets.move_to_end(address)
            return bucket
        if len(self._buckets) >= self.max_addresses:
            self._forget()
        bucket = self._buckets[address] = RateLimit(self.rate, self.burst, self._clock)
        return bucket

    def _forget(self) -> None:
        # the least recently used buckets that have filled up again first, else the least recently used
        for key in [k for k, b in self._buckets.items() if b.full()][: max(1, self.max_addresses // 10)]:
            del self._buckets[key]
        while len(self._buckets) >= self.max_addresses:
            self._buckets.popitem(last=False)


def _per_hour(count: int) -> tuple[float, float]:
    """The rate (a second) and burst of a budget of ``count`` an hour: bursts of a sixth of it."""
    return count / 3600.0, float(max(1, math.ceil(count / 6)))


class _SharedBucket:
    """A token bucket kept in the store, spent by every process sharing it."""

    def __init__(self, store: TableStore, key: str, rate: float, burst: float) -> None:
        self._store, self._key, self.rate, self.burst = store, key, rate, burst

    def ready(self) -> bool:
        return self._store.bucket(self._key, self.rate, self.burst) >= 1.0

    def wait(self) -> float:
        tokens = self._store.bucket(self._key, self.rate, self.burst)
        return 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.rate

    def spend(self) -> None:
        self._store.spend_bucket(self._key, self.rate, self.burst)


class CreationLimit:
    """How many tables one client address and the whole server may create: ``per_address``
    and ``total`` an hour, each in bursts of a sixth of that (at least 1). With ``shared`` (the
    store of a cluster) the buckets are kept there, for all its processes together."""

    def __init__(
        self,
        per_address: int = 30,
        total: int = 600,
        clock: Clock = time.monotonic,
        shared: TableStore | None = None,
    ) -> None:
        self.per_address = per_address
        self.total = total
        self._shared = shared
        self._addresses = AddressBuckets(*_per_hour(per_address), clock=clock)
        self._total: RateLimit | _SharedBucket = RateLimit(*_per_hour(total), clock=clock)
        if shared is not None:
            self._total = _SharedBucket(shared, "total", *_per_hour(total))

    def _mine(self, address: str) -> RateLimit | _SharedBucket:
        if self._shared is None:
            return self._addresses.get(address)
        return _SharedBucket(self._shared, f"address {address}", *_per_hour(self.per_address))

    def check(self, address: str) -> None:
        """:class:`ServeError` ``too-many`` (with the seconds to wait) if ``address`` may not
        create a table now; counts nothing."""
        mine = self._mine(address)
        if not mine.ready():
            raise ServeError(
                f"too many new tables from your address: at most {self.per_address} an hour; "
                f"try again in {math.ceil(mine.wait())} seconds",
                "too-many",
                retry_after=mine.wait(),
            )
        if not self._total.ready():
            raise ServeError(
                f"this server creates at most {self.total} tables an hour and that many were just "
                f"created; try again in {math.ceil(self._total.wait())} seconds",
                "too-many",
                retry_after=self._total.wait(),
            )

    def spend(self, address: str) -> None:
        """Count a table created by ``address``."""
        self._mine(address).spend()
        self._total.spend()
