"""What Discord refuses, in one place, so the in-process harness and the loopback fake
refuse the same bodies the same way: HTTP 400, code 50035 "Invalid Form Body", and an
``errors`` object that names the field (``{"content": {"_errors": [...]}}``, nested by
key and list index as Discord nests it, e.g. ``components.0.components.2.label``).

The limits are Discord's documented ones; the shapes follow its published API description
(``ErrorResponse``/``ErrorDetails``/``InnerErrors``). Where that description is looser than
the documentation (message content up to 4,000 characters, string choice values up to
6,000), the documented limit for a bot is kept: content 2,000, choice values 100.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

__all__ = [
    "ALREADY_ACKNOWLEDGED",
    "ANSWER_DEADLINE",
    "HISTORY_PAGE",
    "INVALID_FORM_BODY",
    "UNKNOWN_INTERACTION",
    "callback_errors",
    "history_errors",
    "invalid_form_body",
    "kept_attachments_errors",
    "message_errors",
    "thread_errors",
]

#: Seconds Discord waits for an interaction's first answer; later it no longer knows it.
ANSWER_DEADLINE = 3.0
#: (status, code, message) of the three refusals the fakes give.
INVALID_FORM_BODY = (400, 50035, "Invalid Form Body")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")

CONTENT = 2000
ACTION_ROWS = 5
ROW_ITEMS = 5
COMPONENTS = 25
BUTTON_LABEL = 80
CUSTOM_ID = 100
SELECT_OPTIONS = 25
OPTION_TEXT = 100
PLACEHOLDER = 150
EMBEDS = 10
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
AUTHOR_NAME = 256
EMBEDS_TOTAL = 6000
CHOICES = 25
CHOICE_TEXT = 100
THREAD_NAME = 100
ATTACHMENTS = 10
ATTACHMENT_TEXT = 1024
MODAL_TITLE = 45
#: The message flag of the newer layout components, which have other limits (not checked).
COMPONENTS_V2 = 1 << 15

Errors = dict[str, Any]


def _error(code: str, message: str) -> Errors:
    return {"_errors": [{"code": code, "message": message}]}


#: The messages a channel's history gives at most per request (its ``limit``).
HISTORY_PAGE = 100


def history_errors(limit: int) -> Errors:
    """What Discord refuses in a request for a channel's messages (its ``limit``: 1-100)."""
    if limit > HISTORY_PAGE:
        return {"limit": _error("NUMBER_TYPE_MAX", f"int value should be <= {HISTORY_PAGE}.")}
    if limit < 1:
        return {"limit": _error("NUMBER_TYPE_MIN", "int value should be >= 1.")}
    return {}


def _too_long(limit: int) -> Errors:
    return _error("BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")


def _text(errors: Errors, key: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors[key] = _too_long(limit)


def _count(errors: Errors, key: str, value: Any, limit: int) -> None:
    if isinstance(value, Sequence) and not isinstance(value, str) and len(value) > limit:
        errors[key] = _too_long(limit)


def _put(errors: Errors, key: str, inner: Errors) -> None:
    if inner:
        errors.setdefault(key, {}).update(inner)


def _component_errors(component: Mapping[str, Any]) -> Errors:
    """One button, select or text input (not a row)."""
    errors: Errors = {}
    kind = component.get("type")
    _text(errors, "custom_id", component.get("custom_id"), CUSTOM_ID)
    _text(errors, "label", component.get("label"), BUTTON_LABEL if kind == 2 else OPTION_TEXT)
    _text(errors, "placeholder", component.get("placeholder"), PLACEHOLDER)
    options = component.get("options")
    if isinstance(options, Sequence):
        _count(errors, "options", options, SELECT_OPTIONS)
        for index, option in enumerate(options):
            found: Errors = {}
            for key in ("label", "value", "description"):
                _text(found, key, option.get(key), OPTION_TEXT)
            if found:
                errors.setdefault("options", {})[str(index)] = found
    return errors


def _tree_errors(component: Mapping[str, Any]) -> Errors:
    """One component and what it holds (an action row's items, a container's rows, a
    section's accessory, a label's component)."""
    errors = _component_errors(component)
    children = component.get("components")
    if isinstance(children, Sequence):
        if component.get("type") == 1:
            _count(errors, "components", children, ROW_ITEMS)
        for index, child in enumerate(children):
            inner = _tree_errors(child)
            if inner:
                errors.setdefault("components", {})[str(index)] = inner
    for key in ("accessory", "component"):
        if isinstance(component.get(key), Mapping):
            _put(errors, key, _tree_errors(component[key]))
    return errors


def _components_errors(components: Any, v2: bool) -> Errors:
    """Classic components: at most 5 action rows of at most 5 items, 25 in all. Every
    item's own limits are checked in the newer layout too."""
    errors: Errors = {}
    if not isinstance(components, Sequence):
        return errors
    if not v2:
        total = sum(len(row.get("components") or ()) for row in components)
        _count(errors, "components", components, ACTION_ROWS)
        if total > COMPONENTS and "components" not in errors:
            errors["components"] = _too_long(COMPONENTS)
    for index, component in enumerate(components):
        inner = _tree_errors(component)
        if inner:
            errors.setdefault("components", {})[str(index)] = inner
    _duplicates(errors, components)
    return errors


def _duplicates(errors: Errors, components: Sequence[Any]) -> None:
    """No two components of a message may have the same custom id: the second is named."""
    seen: set[str] = set()
    for index, component in enumerate(components):
        for number, child in enumerate(component.get("components") or ()):
            custom_id = child.get("custom_id") if isinstance(child, Mapping) else None
            if custom_id is None:
                continue
            if custom_id in seen:
                found = _error(
                    "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated"
                )
                row = errors.setdefault("components", {}).setdefault(str(index), {})
                row.setdefault("components", {}).setdefault(str(number), {})["custom_id"] = found
            seen.add(custom_id)


def _embed_size(embed: Mapping[str, Any]) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    for item in embed.get("fields") or ():
        size += len(item.get("name") or "") + len(item.get("value") or "")
    size += len((embed.get("footer") or {}).get("text") or "")
    size += len((embed.get("author") or {}).get("name") or "")
    return size


def _embeds_errors(embeds: Any) -> Errors:
    errors: Errors = {}
    if not isinstance(embeds, Sequence):
        return errors
    _count(errors, "embeds", embeds, EMBEDS)
    for index, embed in enumerate(embeds):
        found: Errors = {}
        _text(found, "title", embed.get("title"), EMBED_TITLE)
        _text(found, "description", embed.get("description"), EMBED_DESCRIPTION)
        fields = embed.get("fields")
        _count(found, "fields", fields, EMBED_FIELDS)
        for number, item in enumerate(fields or ()):
            inner: Errors = {}
            _text(inner, "name", item.get("name"), FIELD_NAME)
            _text(inner, "value", item.get("value"), FIELD_VALUE)
            if inner:
                found.setdefault("fields", {})[str(number)] = inner
        footer: Errors = {}
        _text(footer, "text", (embed.get("footer") or {}).get("text"), FOOTER)
        _put(found, "footer", footer)
        author: Errors = {}
        _text(author, "name", (embed.get("author") or {}).get("name"), AUTHOR_NAME)
        _put(found, "author", author)
        if found:
            errors.setdefault("embeds", {})[str(index)] = found
    if sum(_embed_size(e) for e in embeds) > EMBEDS_TOTAL and "embeds" not in errors:
        errors["embeds"] = _error(
            "MAX_EMBED_SIZE_EXCEEDED", f"Embed size exceeds maximum size of {EMBEDS_TOTAL}"
        )
    return errors


def message_errors(body: Mapping[str, Any] | None) -> Errors:
    """What Discord would refuse in a message body (a new message, a follow-up, an edit,
    the data of an interaction's message answer); ``{}`` when it would take it."""
    errors: Errors = {}
    if not isinstance(body, Mapping):
        return errors
    _text(errors, "content", body.get("content"), CONTENT)
    errors.update(_embeds_errors(body.get("embeds")))
    v2 = bool(int(body.get("flags") or 0) & COMPONENTS_V2)
    errors.update(_components_errors(body.get("components"), v2))
    errors.update(_attachments_errors(body.get("attachments")))
    return errors


def _attachments_errors(attachments: Any) -> Errors:
    """At most 10 files, each with a name and a description (alt text) of 1,024 at most."""
    errors: Errors = {}
    if not isinstance(attachments, Sequence):
        return errors
    _count(errors, "attachments", attachments, ATTACHMENTS)
    for index, attachment in enumerate(attachments):
        found: Errors = {}
        for key in ("filename", "description"):
            _text(found, key, attachment.get(key), ATTACHMENT_TEXT)
        if found:
            errors.setdefault("attachments", {})[str(index)] = found
    return errors


def kept_attachments_errors(
    attachments: Any, existing: Collection[str], uploads: Collection[int]
) -> Errors:
    """What Discord refuses in the ``attachments`` of a message it stores: each entry names
    an attachment the message has now (kept by its id) or a file uploaded with the request
    (by its index). An attachment an earlier edit left out is gone, with its file: it cannot
    be named again. (Discord names the field; the inner code is ours.)"""
    errors: Errors = {}
    if not isinstance(attachments, Sequence):
        return errors
    for index, attachment in enumerate(attachments):
        named = str(attachment.get("id"))
        if named in existing or (named.isdigit() and int(named) in uploads):
            continue
        errors.setdefault("attachments", {})[str(index)] = {
            "id": _error("ATTACHMENT_UNKNOWN", "Unknown attachment.")
        }
    return errors


def _choices_errors(choices: Any) -> Errors:
    errors: Errors = {}
    if not isinstance(choices, Sequence):
        return errors
    _count(errors, "choices", choices, CHOICES)
    for index, choice in enumerate(choices):
        found: Errors = {}
        _text(found, "name", choice.get("name"), CHOICE_TEXT)
        _text(found, "value", choice.get("value"), CHOICE_TEXT)
        if found:
            errors.setdefault("choices", {})[str(index)] = found
    return errors


def callback_errors(body: Mapping[str, Any] | None) -> Errors:
    """What Discord would refuse in an interaction callback (``{"type": 4, "data": ...}``):
    the message of types 4 and 7, the choices of type 8, the modal of type 9."""
    if not isinstance(body, Mapping):
        return {}
    kind = body.get("type")
    data = body.get("data") or {}
    found: Errors = {}
    if kind in (4, 7):
        found = message_errors(data)
    elif kind == 8:
        found = _choices_errors(data.get("choices"))
    elif kind == 9:
        _text(found, "custom_id", data.get("custom_id"), CUSTOM_ID)
        _text(found, "title", data.get("title"), MODAL_TITLE)
    return {"data": found} if found else {}


def thread_errors(body: Mapping[str, Any] | None) -> Errors:
    """What Discord would refuse in a new thread: its name."""
    errors: Errors = {}
    if isinstance(body, Mapping):
        _text(errors, "name", body.get("name"), THREAD_NAME)
    return errors


def invalid_form_body(errors: Errors) -> dict[str, Any]:
    """The JSON Discord answers a refused body with."""
    _status, code, message = INVALID_FORM_BODY
    return {"code": code, "message": message, "errors": errors}
