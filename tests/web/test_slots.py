"""One markup for the server and the phone (scoring/templatetags/slots.py): a
template renders as it always did, with no trace of its slots, or, with
`slots`, as the skeleton the phone's preview fills (static/js/offline-preview.js):
an inert <template> for each value, conditional part and list, in place."""

from __future__ import annotations

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.template.loader import render_to_string

from scoring.words.guide import worked_example

TAGS = (
    "{% load slots %}"
    "<p{% hooks class=sign %}>{% slot n %} · {% slot name=who|upper %}"
    "{% shown won if won %}<b>won</b>{% else %}<i>lost</i>{% endshown %}"
    "{% each notes note in notes %}<li>{% slot text=note %}</li>{% endeach %}</p>"
)
VALUES = {"n": 3, "who": "didi <3", "won": False, "notes": ["a", "b"]}


def test_the_server_renders_each_tag_as_the_plain_template_would():
    assert Template(TAGS).render(Context(VALUES)) == (
        "<p>3 · DIDI &lt;3<i>lost</i><li>a</li><li>b</li></p>"
    )
    assert "<b>won</b>" in Template(TAGS).render(Context({**VALUES, "won": True}))


def test_the_skeleton_has_a_hook_for_each_and_no_value():
    assert Template(TAGS).render(Context({**VALUES, "slots": True})) == (
        '<p data-hook-class="sign"><template data-slot="n"></template> · '
        '<template data-slot="name"></template>'
        '<template data-if="won"><b>won</b></template>'
        '<template data-unless="won"><i>lost</i></template>'
        '<template data-each="notes"><li><template data-slot="text"></template></li></template></p>'
    )


@pytest.mark.parametrize(
    "source",
    [
        '{% load slots %}{% slot "n" %}',
        "{% load slots %}{% slot a b %}",
        '{% load slots %}{% shown "x" if y %}{% endshown %}',
        "{% load slots %}{% each x in y %}{% endeach %}",
        "{% load slots %}{% hooks %}",
    ],
)
def test_a_malformed_tag_is_refused_when_the_template_is_read(source):
    with pytest.raises(TemplateSyntaxError):
        Template(source)


def test_a_rounds_breakdown_carries_no_slot_and_its_skeleton_no_figure():
    worked = render_to_string("scoring/rounds/_breakdown.html", {"result": worked_example()})
    assert "<template" not in worked and "data-hook" not in worked
    assert "T = <b>14</b>" in worked
    skeleton = render_to_string("scoring/rounds/_breakdown.html", {"slots": True, "compact": True})
    assert 'T = <b><template data-slot="total"></template></b>' in skeleton
    assert '<template data-each="players">' in skeleton
    assert not any(character.isdigit() for character in skeleton.replace("·", ""))
