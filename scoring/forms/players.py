"""A player's name, added or changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from ..engine.limits import MAX_PLAYER_NAME_LENGTH, MAX_SESSION_PLAYERS
from ..engine.names import PlayerNameError, clean_player_name, player_key
from ..models import GameSession, Player


def clean_name(value: str) -> str:
    """Collapse runs of whitespace, so "Didi " and "Didi" are one player."""
    return " ".join(value.split())


def engine_checked(clean: Callable[[str], str], value: str) -> str:
    """`clean(value)` (a cleaner of engine.names), its PlayerNameError a
    ValidationError in the reader's language saying what is wrong."""
    try:
        return clean(value)
    except PlayerNameError as error:
        params = {name: str(value) for name, value in error.msg.params.items()}
        raise forms.ValidationError(gettext(error.msg.id) % params) from None


def clean_player(value: str) -> str:
    """A player's name as stored (engine.names: NFC, nothing invisible), or a
    ValidationError in the reader's language saying what is wrong."""
    return engine_checked(clean_player_name, value)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=MAX_PLAYER_NAME_LENGTH)

    def __init__(
        self, *args: Any, session: GameSession, player: Player | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.session = session
        self.player = player  # when renaming: may keep its own name, in another case

    def clean_name(self) -> str:
        if not clean_name(self.cleaned_data["name"]):
            raise forms.ValidationError(_("This field is required."))
        name = clean_player(self.cleaned_data["name"])
        players = Player.objects.filter(session=self.session)
        if self.player is not None:
            players = players.exclude(pk=self.player.pk)
        same = players.filter(name_key=player_key(name)).first()
        if same is not None:
            if same.name == name:
                message = _("%(name)s already plays in this session") % {"name": name}
            else:
                message = _("%(name)s already plays in this session (as %(as)s)") % {
                    "name": name,
                    "as": same.name,
                }
            raise forms.ValidationError(message)
        if self.player is None and players.count() >= MAX_SESSION_PLAYERS:
            raise forms.ValidationError(
                _("at most %(max)d players in one session") % {"max": MAX_SESSION_PLAYERS}
            )
        return name
