from django.core.management.base import BaseCommand
from django.db.models import Count

from groups.models import Group


class Command(BaseCommand):
    help = "One line per saved group: id, name, currency, members, evenings, payments."

    def handle(self, *args, **options):
        groups = Group.objects.annotate(
            member_count=Count("members", distinct=True),
            evening_count=Count("evenings", distinct=True),
            payment_count=Count("payments", distinct=True),
        ).order_by("id")
        for group in groups:
            self.stdout.write(
                f"{group.pk}\t{group.name}\t{group.currency}\t{group.member_count} members\t"
                f"{group.evening_count} evenings\t{group.payment_count} payments"
            )
