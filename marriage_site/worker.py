"""The worker class scripts/host runs: gunicorn's asgi worker, whose live
streams end at once when it is told to stop (a deploy's reload, a restart),
each with "bye", so that its page opens its stream again on another worker
straight away. Without this a stopping worker would hold its streams open
until GRACEFUL_TIMEOUT ran out, and its pages would then poll a while."""

from gunicorn.workers.gasgi import ASGIWorker


class HostWorker(ASGIWorker):
    def handle_exit_signal(self) -> None:
        super().handle_exit_signal()
        from scoring.web.push import hub

        hub.close_all(bye=True)  # on the event loop: gunicorn's signal handler runs there
