"""Lookalike names: one rule (scoring.engine.names) for files, forms and every
database. A name is stored in NFC; a name made only of invisible characters, or
holding a zero-width or text-direction control, is refused with a message; two
names with the same case-folded NFC form are one player."""

from __future__ import annotations

import copy
import json

import pytest
from django.db import IntegrityError, transaction

from scoring import services
from scoring.engine.names import PlayerNameError, clean_player_name, player_key
from scoring.engine.sessionfile import SessionFileError, loads
from scoring.models import GameSession, Player
from stats.records import load_rounds, player_stats
from tests.samples import night as shared_night
from tests.web_helpers import INVISIBLE, invisible_in

COMPOSED = "Ren\u00e9"
DECOMPOSED = "Rene\u0301"


def night() -> dict:
    """A fresh copy: the shared one holds the module's list of players."""
    return copy.deepcopy(shared_night())


def _refused(name: str) -> str:
    with pytest.raises(PlayerNameError) as caught:
        clean_player_name(name)
    return str(caught.value)


def test_names_are_stored_in_nfc_with_whitespace_collapsed():
    assert clean_player_name(DECOMPOSED) == COMPOSED
    assert clean_player_name("  Thulo \t Dai ") == "Thulo Dai"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("\u200b\u200b", INVISIBLE),
        ("\u200d \ufeff", INVISIBLE),
        ("\u3164", INVISIBLE),  # Hangul filler: a "letter" that draws nothing
        ("Aa\u200bma", invisible_in("Aama", "200B")),
        ("\u202eamaA", invisible_in("amaA", "202E")),
        ("Didi\u2066", invisible_in("Didi", "2066")),
        ("Di\u00addi", invisible_in("Didi", "00AD")),
        ("Aama\u3164", invisible_in("Aama", "3164")),
        ("", "a player name must not be empty"),
    ],
)
def test_invisible_names_and_characters_are_refused(name, message):
    assert _refused(name) == message


def test_a_joiner_inside_devanagari_is_writing_not_a_trick():
    # The eyelash ra of Nepali: र + virama + ZWJ.
    name = "सूर\u094d\u200dय"
    assert clean_player_name(name) == name
    assert player_key(name) == player_key("सूर\u094dय")
    assert _refused("Ram\u200d") == invisible_in("Ram", "200D")


def test_keys_fold_case_and_normal_form():
    assert player_key("RENÉ") == player_key(COMPOSED) == player_key(DECOMPOSED) == "rené"
    assert player_key("Aama") == player_key("aama")
    assert player_key("Straße") == player_key("STRASSE")
    assert player_key("Didi") != player_key("Dai")


# --- session files ---------------------------------------------------------------------


def _file_error(players: list[str]) -> str:
    doc = night()
    doc["players"] = players
    doc["rounds"] = []
    with pytest.raises(SessionFileError) as caught:
        loads(json.dumps(doc))
    return str(caught.value)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["Aama", "aama"], "players: aama is listed twice (as Aama)"),
        ([COMPOSED, DECOMPOSED], "players: René is listed twice"),
        ([COMPOSED, "RENÉ"], "players: RENÉ is listed twice (as René)"),
        (["Didi", "\u200b\u200c"], f"players, entry 2: {INVISIBLE}"),
        (["Aama", "Aa\u200bma"], "players, entry 2: " + invisible_in("Aama", "200B")),
        (["Aama", "\u202eamaA"], "players, entry 2: " + invisible_in("amaA", "202E")),
    ],
)
def test_lookalike_players_in_a_file_are_refused(players, message):
    assert _file_error(players) == message


def test_a_file_round_naming_a_decomposed_player_finds_the_composed_one():
    doc = night()
    doc["players"][0] = COMPOSED
    for round_ in doc["rounds"]:
        for entry in round_["entries"]:
            if entry["player"] == "Aama":
                entry["player"] = DECOMPOSED
        if round_["winner"] == "Aama":
            round_["winner"] = DECOMPOSED
    parsed = loads(json.dumps(doc))
    assert parsed.players[0] == COMPOSED
    assert parsed.rounds[1].winner == COMPOSED


# --- the database ------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_database_refuses_a_case_twin_on_every_backend():
    session = GameSession.objects.create(name="Tihar")
    Player.objects.create(session=session, name=COMPOSED)
    for twin in ("RENÉ", "rené", DECOMPOSED):
        with pytest.raises(IntegrityError), transaction.atomic():
            Player.objects.create(session=session, name=twin)
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.bulk_create([Player(session=session, name="René")])
    assert list(session.players.values_list("name", "name_key")) == [(COMPOSED, "rené")]


@pytest.mark.django_db
def test_a_rename_keeps_the_key_in_step():
    session = GameSession.objects.create(name="Tihar")
    player = Player.objects.create(session=session, name="Didi")
    player.name = "Thuli Didi"
    player.save(update_fields=["name"])
    assert Player.objects.get(pk=player.pk).name_key == "thuli didi"


@pytest.mark.django_db
def test_stats_match_people_across_sessions_by_the_same_key(django_user_model):
    owner = django_user_model.objects.create_user("aama")
    for name, spelling in (("Dashain", COMPOSED), ("Tihar", "RENÉ")):
        doc = night()
        doc["name"] = name
        doc["players"][0] = spelling
        for round_ in doc["rounds"]:
            for entry in round_["entries"]:
                if entry["player"] == "Aama":
                    entry["player"] = spelling
            if round_["winner"] == "Aama":
                round_["winner"] = spelling
        services.save_document(doc=loads(json.dumps(doc)), owner=owner)
    stats = player_stats(load_rounds(owner), player_key(DECOMPOSED))
    assert stats is not None
    assert len(stats.sessions) == 2
