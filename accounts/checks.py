"""`manage.py check --deploy`: a Redis that may evict keys. The failed log-in
counts live in Redis with REDIS_URL (accounts/ratelimit.py); evicted, they would
let a guesser past the limit, so docs/hosting.md asks for `noeviction` (or no
`maxmemory`). A Redis that refuses CONFIG (as managed services do) or does not
answer yet (the check may run before it is started) cannot be asked: then
nothing is said, and docs/hosting.md is all there is."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register
from redis.exceptions import RedisError


def redis_policy(url: str) -> tuple[str, int] | None:
    """(maxmemory-policy, maxmemory) of the Redis at `url`; None if it cannot say."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
    try:
        policy = str(client.config_get("maxmemory-policy").get("maxmemory-policy", ""))
        limit = int(client.config_get("maxmemory").get("maxmemory") or 0)
    except RedisError:  # CONFIG refused, or no answer
        return None
    finally:
        client.close()
    return policy, limit


@register(Tags.caches, deploy=True)
def check_redis_keeps_the_counts(app_configs, **kwargs) -> list[CheckMessage]:
    url = getattr(settings, "REDIS_URL", "")
    if not url:
        return []
    found = redis_policy(url)
    if found is None:
        return []
    policy, limit = found
    if policy == "noeviction" or limit == 0:
        return []
    return [
        Warning(
            f"Redis may evict keys (maxmemory-policy {policy}, maxmemory {limit}): "
            "the failed log-in counts could be pushed out by other keys.",
            hint="Set maxmemory-policy noeviction, or no maxmemory (docs/hosting.md).",
            id="accounts.W001",
        )
    ]
