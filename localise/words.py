"""Words the Nepali catalogue (locale/ne) must hold though no template or form of ours
writes them, marked here so `makemessages` keeps them.

- Rule values and preset names (RULES.md's own words: `count`, `void`, `pagat` …),
  read from the options' declarations: shown on the rules page, in the history
  filter and the rule selects, each through `gettext(value)`
  (localise.templatetags.local_format.rule_value).
- Django's own strings that its bundled Nepali catalogue leaves in English or
  misspells (password rules, the log-in error, number limits, month names). Our
  LOCALE_PATHS come before Django's catalogues, so an entry here wins."""

from django.utils.translation import gettext, gettext_noop, ngettext_lazy, pgettext_lazy

from scoring.engine.rules import CHOICE_VALUES, PRESET_NAMES
from scoring.engine.settlement import FIELD_WORDS

# Every value a rule option can take, and the presets' names: both from the
# options' declarations (scoring/engine/rules.py), so a new value needs only its
# Nepali in the catalogue.
RULE_VALUES: tuple[str, ...] = tuple(dict.fromkeys((*CHOICE_VALUES, *PRESET_NAMES)))


def rule_value_text(value: str) -> str:
    """A rule value as a reader says it: its Nepali, or in English the code's words
    ("next winner", not `next_winner`)."""
    return gettext(value).replace("_", " ")


# Written inside f-strings (scoring/selectors/ledger_table.py), where makemessages cannot see them.
IN_F_STRINGS = (gettext_noop("no winner"),)

DJANGO_STRINGS = (
    # django.contrib.auth: sign-up and log-in
    gettext_noop("The two password fields didn’t match."),
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    gettext_noop("This password is too common."),
    gettext_noop("This password is entirely numeric."),
    gettext_noop("The password is too similar to the %(verbose_name)s."),
    gettext_noop(
        "Please enter a correct %(username)s and password. Note that both "
        "fields may be case-sensitive."
    ),
    gettext_noop("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    gettext_noop("A user with that username already exists."),
    gettext_noop("Enter the same password as before, for verification."),
    gettext_noop(
        "Enter a valid username. This value may contain only letters, "
        "numbers, and @/./+/-/_ characters."
    ),
    gettext_noop("Password confirmation"),
    gettext_noop("username"),
    # django.forms and django.core.validators
    gettext_noop("This field is required."),
    gettext_noop("Enter a whole number."),
    gettext_noop("Enter a number."),
    gettext_noop("Enter a valid date."),
    gettext_noop("Select a valid choice. %(value)s is not one of the available choices."),
    gettext_noop("Ensure this value is greater than or equal to %(limit_value)s."),
    gettext_noop("Ensure this value is less than or equal to %(limit_value)s."),
    # Month names: F and E (full), M (short lower-case keys), N (AP style).
    gettext_noop("January"),
    gettext_noop("February"),
    gettext_noop("March"),
    gettext_noop("April"),
    gettext_noop("May"),
    gettext_noop("June"),
    gettext_noop("July"),
    gettext_noop("August"),
    gettext_noop("September"),
    gettext_noop("October"),
    gettext_noop("November"),
    gettext_noop("December"),
    gettext_noop("jan"),
    gettext_noop("feb"),
    gettext_noop("mar"),
    gettext_noop("apr"),
    gettext_noop("may"),
    gettext_noop("jun"),
    gettext_noop("jul"),
    gettext_noop("aug"),
    gettext_noop("sep"),
    gettext_noop("oct"),
    gettext_noop("nov"),
    gettext_noop("dec"),
)

DJANGO_PLURALS = (
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s digit in total.",
        "Ensure that there are no more than %(max)s digits in total.",
        "max",
    ),
    ngettext_lazy(
        "Ensure that there are no more than %(max)s decimal place.",
        "Ensure that there are no more than %(max)s decimal places.",
        "max",
    ),
)


# A session file's keys, named in an import error's place ("round 2, entry 1,
# player: missing"): in Nepali the reader's word, in English the key as the file
# writes it (scoring.words.i18n.translate). The round form's fields are the engine's
# FIELD_WORDS (player, status, maal, tunnel, winner …), in the catalogue already.
FILE_KEYS = {
    "format": pgettext_lazy("session file", "format"),
    "name": pgettext_lazy("session file", "name"),
    "played_on": pgettext_lazy("session file", "played_on"),
    "currency": pgettext_lazy("session file", "currency"),
    "stake_per_point": pgettext_lazy("session file", "stake_per_point"),
    "rules": pgettext_lazy("session file", "rules"),
    "players": pgettext_lazy("session file", "players"),
    "rounds": pgettext_lazy("session file", "rounds"),
    "entries": pgettext_lazy("session file", "entries"),
    "maal_tally": pgettext_lazy("session file", "maal_tally"),
    "totals": pgettext_lazy("session file", "totals"),
    "money": pgettext_lazy("session file", "money"),
    "transfers": pgettext_lazy("session file", "transfers"),
    "dhoos_pending": pgettext_lazy("session file", "dhoos_pending"),
    "net": pgettext_lazy("session file", "net"),
    "dhoos_booked": pgettext_lazy("session file", "dhoos_booked"),
}


def file_key_text(key: str) -> str:
    """A file's key in the reader's words; a key we do not know (one the file made
    up, a maal item's key) as written."""
    if key in FILE_KEYS:
        return str(FILE_KEYS[key])
    return gettext(key) if key in FIELD_WORDS else key
