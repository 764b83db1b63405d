"""The app's Flask subclass: ensure_sync remembers its answer per function, and answers as Flask."""

from __future__ import annotations

import pytest
from flask import Flask


def test_a_plain_function_is_returned_as_is_and_remembered(app):
    def view():
        return "ok"

    assert app.ensure_sync(view) is view
    assert app.ensure_sync(view) is view
    assert app._is_sync[view] is True


def test_bound_methods_are_returned_as_is_and_remembered_by_their_function(app):
    class View:
        def get(self):
            return "ok"

    first, second = View().get, View().get  # a MethodView binds a new instance per request
    assert app.ensure_sync(first) is first
    assert app.ensure_sync(second) is second
    assert [key for key in app._is_sync if getattr(key, "__qualname__", "") == View.get.__qualname__] == [
        View.get
    ]


def test_a_coroutine_function_is_still_handed_to_flask_every_time(app):
    async def view():
        return "ok"

    def flask_answer():
        try:
            return Flask.ensure_sync(app, view)
        except RuntimeError as error:  # Flask without its async extra refuses coroutines
            return type(error)

    expected = flask_answer()
    for _ in range(2):
        if expected is RuntimeError:
            with pytest.raises(RuntimeError):
                app.ensure_sync(view)
        else:
            assert app.ensure_sync(view) is not view
    assert app._is_sync.get(view) in (None, False)
