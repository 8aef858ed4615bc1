"""`manage.py lan [--port 8000]` (`make lan`): the app for the phones on this
wifi. Lets in this machine's private addresses as hosts (ALLOWED_HOSTS,
CSRF_TRUSTED_ORIGINS), prints the address and its QR code to open on a phone,
then becomes scripts/host listening on every interface (the live pages'
streams with it). Every link and QR code the app shows is built from the
address the phone used (docs/lan.md)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from table.lan import lan_environment, lan_url, private_addresses, terminal_qr


class Command(BaseCommand):
    help = "Serve the app to the phones on this machine's wifi, printing its address and QR code."

    def add_arguments(self, parser):
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument(
            "--print-only",
            action="store_true",
            help="print the addresses and the settings, without starting the server",
        )

    def handle(self, *args, **options):
        port = options["port"]
        if not 0 < port < 65536:
            raise CommandError(f"--port: must be 1 to 65535, got {port}", returncode=2)
        addresses = private_addresses()
        env = lan_environment(addresses, port, dict(os.environ))
        settings.ALLOWED_HOSTS = env["ALLOWED_HOSTS"].split(",")
        settings.CSRF_TRUSTED_ORIGINS = env["CSRF_TRUSTED_ORIGINS"].split(",")
        self._announce(addresses, port, env, options["print_only"])
        if options["print_only"]:
            return
        self.stdout.flush()
        # The host reads the settings from the environment, as every host does.
        host = Path(settings.BASE_DIR) / "scripts" / "host"
        gunicorn = Path(sys.executable).with_name("gunicorn")
        os.execve(
            host,
            [str(host), str(port)],
            {**os.environ, **env, "BIND_HOST": "0.0.0.0", "GUNICORN": str(gunicorn)},
        )

    def _announce(self, addresses: list[str], port: int, env: dict[str, str], dry: bool) -> None:
        if not addresses:
            self.stdout.write(
                "No private network address found (is this machine on a wifi?). "
                f"The app listens on every interface, port {port}."
            )
            return
        url = lan_url(addresses[0], port)
        self.stdout.write(f"On a phone on the same wifi, open {url}")
        for other in addresses[1:]:
            self.stdout.write(f"  (or {lan_url(other, port)})")
        self.stdout.write(terminal_qr(url))
        self.stdout.write(
            "Plain http on the wifi: the app works, but offline mode and the share sheet need "
            "HTTPS off localhost (docs/lan.md)."
        )
        if dry:
            for name, value in env.items():
                self.stdout.write(f"{name}={value}")
