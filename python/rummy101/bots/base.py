"""The bot protocol and the registry by name (used by the simulator and the CLI).

How to write a bot, what ``act`` receives and how to lay a solver meld: docs/bots.md (its
examples run as tests)."""

from __future__ import annotations

import importlib
import os
import random
from collections.abc import Callable, Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, ClassVar

from ..errors import RummyError

__all__ = ["ENTRY_POINT_GROUP", "Bot", "BotError", "BotFactory", "bot_names", "get_bot", "register_bot"]


class BotError(RummyError):
    """An unknown bot name, or a bot asked to act with no legal action."""


class Bot:
    """Base class of bots. Subclasses set :attr:`name` and implement :meth:`act` (docs/bots.md).

    A bot holds its own ``random.Random`` (``self.rng``); with the same seed and the same inputs
    it makes the same choices. It may keep memory between calls (one bot object plays one seat of
    one game).
    """

    name: ClassVar[str] = "bot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(0)

    def act(self, observation: Mapping[str, Any], legal_actions: Sequence[Any]) -> Any:
        """Return one element of ``legal_actions`` (``state.legal_actions()``: exactly what
        ``apply`` accepts) given the seat's ``observation`` (``state.observation(seat)``; other
        racks and the stock order hidden). Called once per action of a turn."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


BotFactory = Callable[[random.Random], Bot]

_REGISTRY: dict[str, BotFactory] = {}


_OPTIONS: dict[str, dict[str, type]] = {}


def register_bot(name: str, factory: Callable[..., Bot],
                 options: Mapping[str, type] | None = None) -> None:
    """Make a bot available by ``name`` (lower case letters, digits, ``_`` and ``-``).

    ``options`` names the keyword options the factory takes and their types (``int``,
    ``float``, ``str``), given as ``name:option=value:option=value`` (e.g.
    ``search:playouts=400``)."""
    if not isinstance(name, str):
        raise BotError(f"a bot name must be a string, got {type(name).__name__} {name!r:.40}")
    key = name.strip().lower()
    if not key or not all(c.isalnum() or c in "_-" for c in key):
        raise BotError(f"bot name {name!r} must be letters, digits, '_' or '-'")
    if not callable(factory):
        # register_bot('x', 5) was accepted and get_bot('x') failed: 'int' object is not callable
        raise BotError(f"bot {name!r}: the factory must be callable (a Bot subclass or a function "
                       f"of an rng), got {type(factory).__name__} {factory!r:.40}")
    if options is not None and not (isinstance(options, Mapping) and all(
            isinstance(k, str) and callable(t) for k, t in options.items())):
        # options=5 was "'int' object is not iterable"; {'playouts': 1} was accepted and
        # get_bot('x:playouts=3') failed with "'int' object is not callable"
        raise BotError(f"bot {name!r}: options must map each option's name to its type (int, "
                       f"float, str or a function of the text), e.g. {{'playouts': int}}, got "
                       f"{type(options).__name__} {options!r:.60}")
    _REGISTRY[key] = factory
    _OPTIONS[key] = dict(options or {})


def _with_options(spec: str, rng: random.Random) -> Bot:
    """``name:option=value:...`` — a registered bot with keyword options."""
    key, *parts = (p.strip() for p in spec.split(":"))
    key = key.lower()
    if key not in _REGISTRY and _from_entry_point(key) is None:
        # an entry point's bot is registered once loaded: 'mybot:depth=3' before its first use
        # said "unknown bot 'mybot'" with mybot among the accepted bots; now it has no option
        raise BotError(f"unknown bot {key!r} in {spec!r}; accepted bots: {', '.join(bot_names())}")
    accepted = _OPTIONS.get(key, {})
    help_ = ", ".join(f"{k} ({t.__name__})" for k, t in accepted.items()) or "none"
    options: dict[str, Any] = {}
    for part in parts:
        k, eq, v = part.partition("=")
        k = k.strip().lower()
        if k not in accepted:
            raise BotError(f"bot {key!r} has no option {k!r} (in {spec!r}); its options: {help_}")
        if not eq:
            kind = _KINDS.get(accepted[k], f"a {accepted[k].__name__}")
            raise BotError(f"option {k!r} of bot {key!r} needs a value (in {spec!r}): write "
                           f"{key}:{k}=<{kind}>")
        if k in options:
            raise BotError(f"option {k!r} is given twice in {spec!r}")
        try:
            options[k] = accepted[k](v.strip())
        except ValueError:
            kind = _KINDS.get(accepted[k], f"a {accepted[k].__name__}")
            raise BotError(f"option {k}={v.strip()!r} of bot {key!r}: expected {kind}") from None
    return _REGISTRY[key](rng, **options)


#: how an option's type reads in an error ("expected a whole number")
_KINDS: dict[Any, str] = {int: "a whole number", float: "a number", str: "a text"}


def bot_names() -> list[str]:
    """The registered names and installed entry-point names :func:`get_bot` accepts, sorted
    (``package.module:BotClass`` paths are accepted too)."""
    return sorted(set(_REGISTRY) | {ep.name.strip().lower()
                                    for ep in entry_points(group=ENTRY_POINT_GROUP)})


ENTRY_POINT_GROUP = "rummy101.bots"


def _from_entry_point(key: str) -> BotFactory | None:
    """A factory that an installed package publishes under the ``rummy101.bots`` entry-point
    group (``[project.entry-points."rummy101.bots"] mybot = "mypkg.bots:MyBot"``)."""
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.name.strip().lower() == key:
            try:
                factory = ep.load()
            except Exception as exc:  # the plugin's own import error, named
                raise BotError(f"bot {key!r} of entry point {ep.value!r} failed to import: "
                               f"{type(exc).__name__}: {exc}") from exc
            if not callable(factory):
                raise BotError(f"entry point {ep.value!r} of bot {key!r} is not a class or "
                               "factory taking a random.Random")
            _REGISTRY[key] = factory
            return factory  # type: ignore[no-any-return]
    return None


def _in_current_folder(module_name: str) -> str:
    """``mybot.py`` or ``mybot/`` when the top package of ``module_name`` is a file or folder of
    the current folder, else ''."""
    top = module_name.split(".")[0]
    for name in (f"{top}.py", top):
        if os.path.exists(name) and (name.endswith(".py") or os.path.isdir(name)):
            return name + ("/" if not name.endswith(".py") else "")
    return ""


def _from_module(spec: str) -> BotFactory:
    """``"package.module:Name"``: a Bot class (or factory taking a ``random.Random``) imported
    by path, so a user's bot runs in ``rummy101 sim`` and on every worker without registration."""
    module_name, _, attr = spec.partition(":")
    if "=" in attr and all(p.isidentifier() for p in module_name.split(".")):
        # 'mybots.open:OpenAsap:depth=3' was told to write 'package.module:BotClass', as if the
        # path were wrong: options follow registered names only
        raise BotError(f"bot {spec!r}: a module path takes no options (name:option=value is "
                       f"for a bot registered with its options: register_bot(name, factory, "
                       f"options={{...}}), docs/bots.md); write 'package.module:BotClass', or a "
                       f"factory there that makes the bot with its options")
    if not module_name or not attr or not all(p.isidentifier() for p in module_name.split(".")) \
            or not all(p.isidentifier() for p in attr.split(".")):
        raise BotError(f"bot {spec!r}: write a module path and a name as 'package.module:BotClass'")
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:
        hint = ""
        if module_name.lower() in _REGISTRY:  # 'search:foo': a registered bot's option, mistyped?
            opts = ", ".join(_OPTIONS.get(module_name.lower(), {})) or "none"
            hint = (f"; for the registered bot {module_name.lower()!r}, write options as "
                    f"{module_name.lower()}:option=value (its options: {opts})")
        elif isinstance(exc, ModuleNotFoundError) and exc.name == module_name.split(".")[0]:
            here = _in_current_folder(module_name)
            if here:  # the console script does not search the current folder, as `python -m` does
                hint = (f"; {here} is in the current folder, which the rummy101 command does not "
                        f"search: run it as PYTHONPATH=. rummy101 ... (or install the module)")
        raise BotError(f"bot {spec!r}: module {module_name!r} failed to import: "
                       f"{type(exc).__name__}: {exc} (is it on PYTHONPATH of every worker?){hint}") from exc
    for part in attr.split("."):
        if not hasattr(obj, part):
            raise BotError(f"bot {spec!r}: module {module_name!r} has no {attr!r}")
        obj = getattr(obj, part)
    if not callable(obj):
        raise BotError(f"bot {spec!r}: {attr!r} is not a class or factory taking a random.Random")
    return obj  # type: ignore[no-any-return]


def options_hint(name: str) -> str:
    """What to write instead of a bot name given options in parentheses, as ``--rules`` takes
    them (``search(playouts=3)``): ``"; ... write 'search:playouts=3' ..."``, else ``""``."""
    head, paren, rest = name.partition("(")
    key = head.strip().lower()
    if not paren or key not in _REGISTRY:
        return ""
    opts = [p.strip() for p in rest.partition(")")[0].split(",") if p.strip()]
    example = ":".join([key, *opts])
    return (f"; a bot's options follow colons, not parentheses as the rules' do: write "
            f"{example!r} (name:option=value:option=value)")


def get_bot(name: str, rng: random.Random | None = None) -> Bot:
    """A new bot of kind ``name`` using ``rng`` (a fresh ``random.Random(0)`` if omitted).

    ``name`` is a registered name (:func:`register_bot`), with options as
    ``name:option=value:...`` (``search:playouts=400``), a name published by an installed
    package under the ``rummy101.bots`` entry-point group, or ``"package.module:BotClass"``
    (imported; docs/bots.md)."""
    if not isinstance(name, str):
        raise BotError(f"a bot name must be a string, got {type(name).__name__} {name!r}; "
                       f"accepted bots: {', '.join(bot_names())}")
    if rng is not None and not isinstance(rng, random.Random):
        # an int seed was kept as the bot's rng and failed at its first random choice, deep in act
        raise BotError(f"rng must be a random.Random (e.g. random.Random({rng!r:.20})) or None, "
                       f"got {type(rng).__name__}")
    spec = name.strip()
    rng = rng if rng is not None else random.Random(0)
    head, *tail = (p.strip() for p in spec.split(":"))
    if tail and (all("=" in p for p in tail)
                 or any(p.partition("=")[0].lower() in _OPTIONS.get(head.lower(), {}) for p in tail)):
        bot = _with_options(spec, rng)
    elif ":" in spec:
        bot = _from_module(spec)(rng)
    else:
        key = spec.lower()
        factory = _REGISTRY.get(key) or _from_entry_point(key)
        if factory is None:
            raise BotError(f"unknown bot {name!r}; accepted bots: {', '.join(bot_names())}, an "
                           "installed 'rummy101.bots' entry point, or 'package.module:BotClass'"
                           f"{options_hint(spec)}")
        bot = factory(rng)
    if not callable(getattr(bot, "act", None)):
        raise BotError(f"bot {name!r} made a {type(bot).__name__}, which has no act(observation, "
                       "legal_actions) method")
    return bot


def no_legal_action(bot: Bot, observation: Mapping[str, Any]) -> BotError:
    seat = observation.get("seat", "?") if isinstance(observation, Mapping) else "?"
    return BotError(f"{bot.name} bot asked to act with no legal action (seat {seat})")


def check_act(bot: Bot, observation: Any, legal_actions: Any, reads_view: bool = False) -> None:
    """``act``'s arguments as the engine passes them: the observation a mapping
    (``State.observation(seat)``; with ``reads_view``, for a bot that reads it, one that names
    its ``rules``: the simulator hands a bot that needs no view an empty one), the legal actions
    a non-empty list (``State.legal_actions()``). BotError otherwise, not a KeyError or
    AttributeError from inside the bot."""
    if (type(legal_actions) is list and legal_actions
            and (type(observation) is dict or isinstance(observation, Mapping))
            and (not reads_view or "rules" in observation)):
        return  # (the engine's call: two type tests and a key)
    if not isinstance(observation, Mapping):
        raise BotError(f"{bot.name} bot: the observation must be the mapping "
                       f"State.observation(seat) returns, got {type(observation).__name__} "
                       f"{observation!r:.40}")
    if reads_view and "rules" not in observation:
        raise BotError(f"{bot.name} bot: the observation has no 'rules': it must be the mapping "
                       f"State.observation(seat) returns, got {observation!r:.60}")
    if not isinstance(legal_actions, Sequence) or isinstance(legal_actions, (str, bytes)):
        raise BotError(f"{bot.name} bot: legal_actions must be the list State.legal_actions() "
                       f"returns, got {type(legal_actions).__name__} {legal_actions!r:.40}")
    if not legal_actions:
        raise no_legal_action(bot, observation)
