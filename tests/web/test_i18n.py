"""Spanish and English throughout: the catalog, the engine's notes, the table, the language switch.

- The Spanish catalog has no untranslated or fuzzy entry, and the compiled .mo says what the .po says.
- Every note code and Fate effect code the ``rules`` engine can emit has a line in ``gmtools.notes``
  (read from the engine's source, so a new code without a translation fails here) and that line is
  translated: the engine is exercised into every code, and each note reads differently in Spanish.
- The table in Spanish (by Accept-Language or by the language cookie) uses the published terms.
- The navbar's switch posts to ``set_language`` and comes back to the same page.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from gmtools import notes
from gmtools.games.base import request_doc
from gmtools.models import Roll
from tests.games import Game
from rules import exalted, fate, scifi, v5

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "locale" / "es" / "LC_MESSAGES" / "django.po"
RULES = ROOT / "rules"


# --- the catalog -------------------------------------------------------------------------------


def _unquote(line: str) -> str:
    body = line[line.index('"') + 1:line.rindex('"')]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def po_entries(path: Path = PO) -> list[dict]:
    """Each entry of a .po file: its flags, msgctxt, msgid, msgid_plural and msgstr (a list for plurals)."""
    entries = []
    for block in re.split(r"\n\s*\n", path.read_text(encoding="utf-8").strip()):
        entry: dict = {"flags": set(), "obsolete": False}
        field = None
        for line in block.splitlines():
            if line.startswith("#~"):
                entry["obsolete"] = True
            elif line.startswith("#,"):
                entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith('"'):
                if isinstance(entry[field], list):
                    entry[field][-1] += _unquote(line)
                else:
                    entry[field] += _unquote(line)
            else:
                match = re.match(r"(msgctxt|msgid_plural|msgid|msgstr)(\[\d+\])?\s", line)
                assert match, f"unreadable line in {path.name}: {line!r}"
                field = match.group(1)
                if match.group(2):
                    entry.setdefault(field, []).append(_unquote(line))
                else:
                    entry[field] = _unquote(line)
        if "msgid" in entry:
            entries.append(entry)
    return entries


def _translations(entry: dict) -> list[str]:
    value = entry.get("msgstr", "")
    return value if isinstance(value, list) else [value]


def test_the_spanish_catalog_is_complete():
    entries = [e for e in po_entries() if e["msgid"] and not e["obsolete"]]
    assert len(entries) > 300
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    untranslated = [e["msgid"] for e in entries if not all(_translations(e))]
    assert not fuzzy, f"fuzzy entries: {fuzzy}"
    assert not untranslated, f"untranslated entries: {untranslated}"


def test_the_compiled_catalog_matches_the_po():
    """A .po edited without compilemessages leaves a stale .mo: what gettext answers must be the .po."""
    stale = []
    with translation.override("es"):
        for e in po_entries():
            if not e["msgid"] or e["obsolete"]:
                continue
            context = e.get("msgctxt")
            if "msgid_plural" in e:
                got = [translation.npgettext(context, e["msgid"], e["msgid_plural"], n) if context else
                       translation.ngettext(e["msgid"], e["msgid_plural"], n) for n in (1, 5)]
            else:
                got = [translation.pgettext(context, e["msgid"]) if context else translation.gettext(e["msgid"])]
            if got != _translations(e):
                stale.append(e["msgid"])
    assert not stale, f"run compilemessages: the .mo differs from the .po for {stale}"


@pytest.mark.parametrize("msgid, spanish", [
    ("Hunger", "Ansia"), ("Messy critical", "Crítico conflictivo"), ("Bestial failure", "Fallo bestial"),
    ("Rouse check", "Control de Enardecimiento"), ("Critical win", "Victoria crítica"), ("margin", "margen"),
    ("Botch", "Fracaso"), ("Motes", "Motas"), ("Essence", "Esencia"),
    ("Fail", "Fallo"), ("Tie", "Empate"), ("Success", "Éxito"), ("Success with style", "Éxito crítico"),
    ("shifts", "aumentos"), ("Fate points", "Puntos de destino"), ("+3 Good", "+3 Grande"), ("+1 Average", "+1 Normal"),
    ("Barely a success", "Éxito ajustado"), ("Clean success", "Éxito justo"), ("Absolute success", "Éxito absoluto"),
    ("Fumble", "Pifia"), ("Extreme (4)", "Extrema (4)"),
])
def test_published_terms(msgid, spanish):
    with translation.override("es"):
        assert translation.gettext(msgid) == spanish


def test_words_each_game_says_its_own_way():
    with translation.override("es"):
        assert translation.pgettext("exalted", "Willpower") == "Voluntad"
        assert translation.pgettext("v5", "Willpower") == "Fuerza de Voluntad"
        assert translation.pgettext("exalted", "1 Willpower") == "1 punto de Voluntad"
        assert translation.pgettext("v5", "1 Willpower") == "1 punto de Fuerza de Voluntad"
        assert translation.pgettext("exalted", "Stunt") == "Acrobacia"
        assert translation.pgettext("fate", "Stunt") == "Proeza"
        template = Template('{% load notes %}{{ "Willpower"|term:"v5" }} · {{ "Willpower"|term:"exalted" }}')
        rendered = template.render(Context())
        assert rendered == "Fuerza de Voluntad · Voluntad"


# --- the engine's notes and effects --------------------------------------------------------------


def _codes_in_rules(*functions: str) -> tuple[set[str], set[str]]:
    """The codes passed to ``function(...)`` in rules/: literal ones, and f-string ones as regexes."""
    literal, patterns = set(), set()
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in functions):
                continue
            code = node.args[0] if node.args else next(k.value for k in node.keywords if k.arg == "code")
            if isinstance(code, ast.Name):
                continue  # a code passed through (rules.dice.note itself)
            if isinstance(code, ast.Constant):
                literal.add(code.value)
            elif isinstance(code, ast.JoinedStr):
                patterns.add("".join(re.escape(part.value) if isinstance(part, ast.Constant) else "[a-z_]+"
                                     for part in code.values))
            else:
                pytest.fail(f"{path.name}:{node.lineno}: a {node.func.id} code neither literal nor an f-string")
    return literal, patterns


def engine_notes() -> list[dict]:
    """Notes from every kind of result the engine produces, each code at least once."""
    out: list = []

    # exalted: stunt, modifiers, tens, Willpower, met / short / botch, automatic success, opposed
    stunted = exalted.Request(pool=4, difficulty=2, stunt=2, modifiers=(-1,))
    out += exalted.resolve(stunted, (10, 7, 3, 2, 5)).notes
    out += exalted.resolve(exalted.Request(pool=3, difficulty=3), (10, 10, 7)).notes
    out += exalted.resolve(exalted.Request(pool=3, difficulty=3), (7, 2, 3)).notes
    out += exalted.resolve(exalted.Request(pool=3), (1, 1, 3)).notes
    out += exalted.resolve(exalted.Request(pool=2, willpower=True), (2, 3)).notes
    out += exalted.automatic_success(exalted.Request(pool=8, difficulty=3)).notes
    one = exalted.resolve(exalted.Request(pool=3), (7, 8, 2))
    other = exalted.resolve(exalted.Request(pool=3), (7, 2, 2))
    for a, b in ((one, other), (other, one), (one, one)):
        out += exalted.resolve_opposed(a, b).notes

    # scifi: modifiers (capped, floored, plain), impossible, automatic, no dice, explosions, fumble, opposed
    out += scifi.resolve(scifi.Request(pool=3, modifiers=(4,)), (10, 7, 1, 2, 3, 4, 8)).notes
    out += scifi.resolve(scifi.Request(pool=3, modifiers=(-5,))).notes
    out += scifi.resolve(scifi.Request(pool=3, modifiers=(1,), difficulty="hard"), (1, 2, 3, 4)).notes
    out += scifi.resolve(scifi.Request(pool=3, difficulty="hard", skill=0)).notes
    out += scifi.resolve(scifi.Request(pool=3, difficulty="easy", skill=2)).notes
    out += scifi.resolve(scifi.Request(pool=3, difficulty="easy", skill=0, knowledge=True)).notes
    for faces_a, faces_b in (((7, 8, 2), (1, 2)), ((1, 2), (7, 8, 2)), ((7, 2), (8, 3)),
                             ((7, 2), (2, 3)), ((7, 8, 9, 9), (2, 3))):
        out += scifi.resolve_opposed(scifi.Request(pool=len(faces_a)), faces_a,
                                     scifi.Request(pool=len(faces_b)), faces_b).notes

    # v5: pool notes, win / failure / total failure / win at a cost, criticals, messy, bestial,
    # automatic win, take half, Willpower reroll, rouse checks
    out += v5.resolve(v5.Request(pool=3, hunger=1, difficulty=2, specialty=True), (10, 10, 3), (10,)).notes
    out += v5.resolve(v5.Request(pool=2, difficulty=3, modifiers=(-4,)), (2,)).notes
    out += v5.resolve(v5.Request(pool=3, hunger=2, difficulty=3, tracker=True, remorse=True), (6, 2, 3)).notes
    out += v5.resolve(v5.Request(pool=3, difficulty=2, difficulty_modifiers=(3,), improvised=True), (6, 2, 3)).notes
    out += v5.roll(v5.Request(pool=3, no_equipment=True)).notes
    out += v5.resolve(v5.Request(pool=3, hunger=2, difficulty=4), (2,), (1, 3)).notes
    out += v5.resolve(v5.Request(pool=4, difficulty=1, impaired=True), (6, 2)).notes  # issue 23: impaired
    request = v5.Request(pool=4, difficulty=2)
    first = v5.resolve(request, (1, 2, 3, 6))
    out += v5.reroll(request, first, (0, 1), (6, 7)).notes
    out += v5.automatic_win(v5.Request(pool=6, difficulty=3)).notes
    out += v5.take_half(v5.Request(pool=6, difficulty=3)).notes
    out += v5.rouse(7, 2).notes + v5.rouse(3, 2).notes + v5.rouse(3, 5).notes + v5.rouse(8, 5).notes

    # fate: dice, bonus, total, each outcome, invocations, rerolls, opposed, the deck, hits
    plain = fate.Request(bonus=2, difficulty=1)
    for faces in ((-1, -1, -1, -1), (0, 0, 0, -1), (0, 0, 0, 0), (1, 1, 0, 0)):  # fail, tie, success, style
        out += fate.resolve(plain, faces).notes
    rolled = fate.resolve(plain, (0, 0, 0, 0))
    out += fate.invoke_bonus(plain, rolled).notes
    out += fate.reroll(plain, rolled, (1, 1, 1, 1)).notes
    out += fate.resolve_opposed(rolled, fate.resolve(fate.Request(), (-1, 0, 0, 0))).notes
    out += fate.roll_deck(plain, fate.Deck(), _FirstCards())[0].notes
    out += fate.absorb_hit(9, fate.StressTrack(), fate.Consequences(), None).notes
    plan = fate.HitPlan(box=3, consequences=(fate.Severity.MILD, fate.Severity.MODERATE, fate.Severity.SEVERE))
    out += fate.absorb_hit(15, fate.StressTrack(), fate.Consequences(), plan, ("Cut", "Broken arm", "Coma")).notes
    return [n.as_json() for n in out]


class _FirstCards:
    """A random source that leaves a reshuffled deck in order (Fisher–Yates swapping nothing)."""

    def randint(self, a: int, b: int) -> int:
        return b


def _variants(note: dict) -> list[dict]:
    """The note, and the forms of it an engine with more parameters would write (the difficulty, the die)."""
    extra = {"met": {"difficulty": 3}, "short": {"difficulty": 3}, "rouse_pass": {"face": 7},
             "rouse_fail": {"face": 3}, "rouse_fail_at_maximum": {"face": 2}}.get(note["code"])
    return [note] + ([{**note, **extra}] if extra else [])


def test_every_note_code_in_the_engine_has_a_line():
    literal, patterns = _codes_in_rules("note", "Note")
    assert len(literal) > 40
    missing = literal - set(notes.NOTES)
    assert not missing, f"note codes without a translation in gmtools/notes.py: {sorted(missing)}"
    emitted = {n["code"] for n in engine_notes()}
    for pattern in patterns:
        expanded = {code for code in emitted if re.fullmatch(pattern, code)}
        assert expanded, f"the engine emitted no note of the f-string code {pattern}"
        assert expanded <= set(notes.NOTES), f"codes of {pattern} without a line: {expanded - set(notes.NOTES)}"
    # Every code the engine source names, the exercise above emits, so each is checked for real below.
    assert literal <= emitted, f"extend engine_notes() to emit {sorted(literal - emitted)}"
    assert set(notes.NOTES) <= emitted, f"lines for codes the engine never emits: {sorted(set(notes.NOTES) - emitted)}"


def test_every_note_reads_in_spanish_and_in_english():
    for note in (v for n in engine_notes() for v in _variants(n)):
        with translation.override("en"):
            english = notes.NOTES[note["code"]](note)  # no fallback: the line takes the note's parameters
        with translation.override("es"):
            spanish = notes.note_text(note)
        assert english and spanish, note
        assert spanish != english, f"{note['code']}: not translated ({spanish!r})"
        assert spanish != note["text"], f"{note['code']}: fell back to the engine's English"


def test_every_effect_code_has_a_translated_line():
    literal, patterns = _codes_in_rules("Effect")
    assert not patterns
    table = {effect.code for row in fate.TABLE.values() for effect in row.values()}
    assert literal == table
    assert table == set(notes.EFFECTS), (table ^ set(notes.EFFECTS))
    effects = [fate.effects(action, outcome, shifts=shifts).as_json()
               for action in fate.Action for outcome, shifts in
               ((fate.Outcome.FAIL, -1), (fate.Outcome.TIE, 0), (fate.Outcome.SUCCESS, 1),
                (fate.Outcome.SUCCESS, 2), (fate.Outcome.STYLE, 3))]
    effects += [fate.effects(fate.Action.CREATE_ADVANTAGE, o, known_aspect=True).as_json() for o in fate.Outcome]
    effects += [fate.effects(fate.Action.CREATE_ADVANTAGE, o, discovering=True).as_json() for o in fate.Outcome]
    effects += [fate.effects(fate.Action.ATTACK, o).as_json() for o in fate.Outcome]  # no shifts: no stress
    assert {e["code"] for e in effects} == table
    for effect in effects:
        with translation.override("en"):
            english = notes.effect_text(effect)
        with translation.override("es"):
            spanish = notes.effect_text(effect)
        assert spanish != english and spanish != effect["text"], effect["code"]


@pytest.mark.parametrize("note, spanish", [
    ({"code": "botch", "text": "botch (2 ones)", "ones": 2}, "fracaso (2 unos)"),
    ({"code": "stunt", "text": "2-die stunt: +2 dice", "dice": 2}, "acrobacia de 2 dados: +2 dados"),
    ({"code": "willpower", "text": "1 Willpower: +1 success"}, "1 punto de Voluntad: +1 éxito"),
    ({"code": "messy_critical", "text": "a hunger die shows 10: messy critical"},
     "un dado de Ansia muestra 10: crítico conflictivo"),
    ({"code": "bestial_failure", "text": "a hunger die shows 1: bestial failure"},
     "un dado de Ansia muestra 1: fallo bestial"),
    ({"code": "critical_win", "text": "critical win"}, "victoria crítica"),
    ({"code": "rouse_fail", "text": "rouse check 3: Hunger rises to 3", "hunger": 3},
     "control de Enardecimiento fallido (sale 3): el Ansia sube a 3"),
    ({"code": "rouse_fail", "text": "(an older wording)", "hunger": 3},
     "control de Enardecimiento fallido: el Ansia sube a 3"),
    ({"code": "met", "text": "difficulty 3 met with 2 extra", "extra": 2},
     "dificultad 3 alcanzada con 2 éxitos adicionales"),
    ({"code": "short", "text": "1 short of difficulty 3", "short": 1}, "falta 1 éxito para la dificultad 3"),
    ({"code": "dice", "text": "dice -0++: +1", "dice": 1}, "dados -0++: +1"),
    ({"code": "reroll", "text": "an invoked aspect rerolled the dice (was 0000, ----)", "count": 2},
     "aspectos invocados hicieron repetir la tirada (antes 0000, ----)"),
    ({"code": "willpower_reroll", "text": "...", "dice": 2},
     "Fuerza de Voluntad: se vuelven a tirar 2 dados normales (1 de daño superficial a la Fuerza de Voluntad)"),
    ({"code": "win", "text": "...", "successes": 3, "difficulty": 2, "margin": 1},
     "victoria: 3 éxitos contra dificultad 2, margen 1"),
    ({"code": "total", "text": "...", "total": 5, "difficulty": 2, "shifts": 3},
     "total +5 (Excelente) contra +2 (Bueno): +3 aumentos"),
    ({"code": "outcome_style", "text": "success with style"}, "éxito crítico"),
    ({"code": "outcome_fail", "text": "fail"}, "fallo"),
    ({"code": "card", "text": "...", "card": 80}, "carta 80 de la Baraja Fate: ++++"),
    ({"code": "consequence_mild", "text": "...", "shifts": 2, "aspect": "Cut"}, "consecuencia leve (2): Cut"),
    ({"code": "fumble", "text": "failed with a first die of 1: fumble"}, "fallo con un 1 en el primer dado: pifia"),
    ({"code": "explosion", "text": "...", "dice": 2}, "explosión: 2 dados más por los dieces"),
    ({"code": "opposed_win", "text": "first side wins narrowly", "side": "first", "victory": "narrowly", "by": 1},
     "el primer bando gana por los pelos"),
    ({"code": "opposed_win", "text": "second side wins by 2", "side": "second", "net": 2},
     "gana el segundo bando por 2"),
])
def test_notes_in_spanish(note, spanish):
    with translation.override("es"):
        assert notes.note_text(note) == spanish


def test_fate_effects_in_spanish():
    with translation.override("es"):
        assert notes.effect_text({"code": "overcome_style", "text": "..."}) == "consigues tu objetivo y un impulso"
        hit = fate.effects("attack", "success", shifts=2).as_json()
        assert notes.effect_text(hit) == "el ataque acierta y causa 2 aumentos de daño"
        assert notes.effect_text({"code": "create_advantage_success", "text": "..."}) == (
            "creas o descubres el aspecto y consigues una invocación gratuita")


def test_an_unknown_code_or_bad_parameters_fall_back_to_the_english_text():
    with translation.override("es"):
        assert notes.note_text({"code": "brand_new", "text": "something new", "x": 1}) == "something new"
        assert notes.note_text({"code": "botch", "text": "botch (? ones)"}) == "botch (? ones)"  # no ``ones``
        assert notes.note_text({"code": "card", "text": "card 99", "card": 99}) == "card 99"
        assert notes.note_text({"code": "opposed_win", "text": "x wins", "side": "x", "net": 1}) == "x wins"
        assert notes.effect_text({"code": "brand_new", "text": "new effect"}) == "new effect"
        assert notes.note_text({"text": "no code"}) == "no code"
        assert notes.note_text(None) == ""


def test_the_filters_render_in_the_active_language_and_escape():
    template = Template("{% load notes %}{% for n in notes %}<li>{{ n|note_text }}</li>{% endfor %}"
                        "<p>{{ effect|effect_text }}</p>")
    context = {"notes": [{"code": "consequence_severe", "text": "...", "shifts": 6, "aspect": "<b>Coma</b>"}],
               "effect": {"code": "defend_style", "text": "..."}}
    with translation.override("es"):
        html = template.render(Context(context))
    assert "<li>consecuencia grave (6): &lt;b&gt;Coma&lt;/b&gt;</li>" in html
    assert "<p>tu oponente no consigue lo que buscaba y además obtienes un impulso</p>" in html
    with translation.override("en"):
        html = template.render(Context(context))
    assert "severe consequence (6): &lt;b&gt;Coma&lt;/b&gt;" in html and "and you get a boost" in html


# --- the table in Spanish ----------------------------------------------------------------------


def _log(character, result, request, outcome, **document) -> Roll:
    return Roll.objects.create(
        campaign=character.campaign, character=character, actor=character.name, system=character.campaign.game,
        kind="roll", label="test", request={**request_doc(request), "shortcut": "roll"},
        result={"main": result.as_json(), **document}, outcome=str(outcome),
    )


def _table(client, character, **headers) -> str:
    response = client.get(reverse("table", args=[character.campaign.pk]), headers=headers)
    assert response.status_code == 200
    return response.content.decode()


def test_a_vampire_table_in_spanish(gm_client, make_character):
    character = make_character(Game.V5, name="Ana", v5_hunger=2)
    request = v5.Request(pool=5, hunger=2, difficulty=2)
    _log(character, v5.resolve(request, (10, 3, 4), (10, 1)), request, "win")
    html = _table(gm_client, character, accept_language="es")
    assert '<html lang="es">' in html
    for term in ("Ansia", "Salud", "Humanidad", "Enardecer", "Crítico conflictivo", "Registro de tiradas", "margen"):
        assert term in html, term
    assert "Messy critical" not in html and "Hunger" not in html


def test_a_vampire_card_says_fuerza_de_voluntad(gm_client, make_character):
    """V5's Willpower is *Fuerza de Voluntad* (Exalted's is *Voluntad*): the label takes the game's context."""
    v5_character = make_character(Game.V5, name="Ana")
    html = _table(gm_client, v5_character, accept_language="es")
    assert "<span>Fuerza de Voluntad</span>" in html
    exalted_character = make_character(Game.EXALTED, name="Koi")
    html = _table(gm_client, exalted_character, accept_language="es")
    assert "<span>Voluntad</span>" in html and "Fuerza de Voluntad" not in html


def test_the_roll_card_notes_and_effects_in_spanish(gm_client, make_character):
    vampire = make_character(Game.V5, name="Ana")
    request = v5.Request(pool=5, hunger=2, difficulty=2)
    _log(vampire, v5.resolve(request, (10, 3, 4), (10, 1)), request, "win")
    html = _table(gm_client, vampire, accept_language="es")
    assert "un dado de Ansia muestra 10: crítico conflictivo" in html
    assert "a hunger die shows 10" not in html

    hero = make_character(Game.FATE, name="Zird")
    request = fate.Request(bonus=2, difficulty=1)
    result = fate.resolve(request, (1, 1, 0, 0))
    effect = {**fate.effects("overcome", result.outcome, shifts=result.shifts).as_json(), "action": "overcome"}
    _log(hero, result, request, result.outcome, effect=effect)
    html = _table(gm_client, hero, accept_language="es")
    assert "Éxito crítico" in html
    assert "consigues tu objetivo y un impulso" in html and "you achieve your goal" not in html
    assert "total +4 (Enorme) contra +1 (Normal): +3 aumentos" in html


def test_an_exalted_botch_in_spanish_by_the_language_cookie(gm_client, make_character):
    character = make_character(Game.EXALTED, name="Koi")
    request = exalted.Request(pool=4)
    _log(character, exalted.resolve(request, (1, 1, 3, 5)), request, "botch")
    gm_client.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    html = _table(gm_client, character)
    assert "Fracaso (2 unos)" in html
    for term in ("Voluntad", "Motas", "Esencia", "Acrobacia"):
        assert term in html, term


def test_the_table_stays_in_english_for_an_english_browser(gm_client, make_character):
    character = make_character(Game.V5, name="Ana")
    request = v5.Request(pool=5, hunger=2, difficulty=2)
    _log(character, v5.resolve(request, (10, 3, 4), (10, 1)), request, "win")
    html = _table(gm_client, character, accept_language="en")
    assert "Hunger" in html and "Messy critical" in html and "Ansia" not in html


# --- the language switch -----------------------------------------------------------------------


def test_the_navbar_switch_posts_to_set_language_and_keeps_the_page(gm_client, make_character):
    character = make_character(Game.V5, name="Ana")
    table = reverse("table", args=[character.campaign.pk])
    html = _table(gm_client, character)
    form = re.search(r'<form method="post" action="([^"]+)"[^>]*id="language-switch".*?</form>', html, re.S)
    assert form and form.group(1) == reverse("set_language")
    assert f'name="next" value="{table}"' in form.group(0)
    assert 'name="csrfmiddlewaretoken"' in form.group(0)
    assert 'value="es"' in form.group(0) and "Español" in form.group(0) and "English" in form.group(0)

    response = gm_client.post(reverse("set_language"), {"language": "es", "next": table})
    assert response.status_code == 302 and response["Location"] == table
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"
    html = _table(gm_client, character)  # no Accept-Language: the cookie decides
    assert '<html lang="es">' in html and "Ansia" in html
    assert re.search(r'value="es"[^>]*class="[^"]*active', html)

    response = gm_client.post(reverse("set_language"), {"language": "en", "next": table})
    assert response["Location"] == table
    html = _table(gm_client, character, accept_language="es")  # the choice wins over the browser
    assert '<html lang="en">' in html and "Hunger" in html


def test_the_switch_refuses_a_foreign_next_and_works_logged_out(client):
    response = client.post(reverse("set_language"), {"language": "es", "next": "https://evil.example/"})
    assert response.status_code == 302 and response["Location"] == "/"
    login = client.get(reverse("login"))
    assert "Iniciar sesión" in login.content.decode() and 'id="language-switch"' in login.content.decode()


def test_the_switch_needs_csrf(gm):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(gm)
    assert strict.post(reverse("set_language"), {"language": "es", "next": "/"}).status_code == 403


def _refusal_codes() -> set[str]:
    """Every code the engine gives a RulesError (its second argument), read from the source."""
    import ast

    codes = set()
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesError" and len(node.args) > 1
                    and isinstance(node.args[1], ast.Constant)):
                codes.add(node.args[1].value)
    return codes


def test_the_engine_gives_codes_to_the_refusals_a_gm_meets():
    assert {"pool_unrollable", "budget_slots", "off_rol_closed", "reroll_count"} <= _refusal_codes()


@pytest.mark.parametrize("code", sorted(_refusal_codes()))
def test_every_coded_refusal_reads_in_spanish(code):
    from gmtools.notes import REFUSALS

    assert code in REFUSALS, f"add a line for {code!r} to gmtools.notes.REFUSALS"


def test_a_refusal_from_the_engine_reads_in_spanish():
    from gmtools.notes import refusal_text
    from rules import scifi
    from rules.dice import RulesError

    budget = scifi.TurnBudget().take("short").take("short")
    with pytest.raises(RulesError) as refused:
        budget.take("short")
    with translation.override("es"):
        spanish = refusal_text(refused.value)
    assert spanish != str(refused.value) and "0 de 2" in spanish
    assert refusal_text(RulesError("no code here")) == "no code here"
