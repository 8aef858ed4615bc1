"""A player's name, added or changed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..engine.sessionfile import MAX_PLAYER_NAME_LENGTH
from ..models import GameSession, Player


def clean_name(value: str) -> str:
    """Collapse runs of whitespace, so "Didi " and "Didi" are one player."""
    return " ".join(value.split())


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=MAX_PLAYER_NAME_LENGTH)

    def __init__(
        self, *args: Any, session: GameSession, player: Player | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.session = session
        self.player = player  # when renaming: may keep its own name, in another case

    def clean_name(self) -> str:
        name = clean_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("This field is required."))
        others = Player.objects.filter(session=self.session, name__iexact=name)
        if self.player is not None:
            others = others.exclude(pk=self.player.pk)
        if others.exists():
            raise forms.ValidationError(
                _("%(name)s already plays in this session") % {"name": name}
            )
        return name
