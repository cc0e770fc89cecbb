"""The stage handlers' view of the flow (:class:`tablekit.flow.host.FlowState`) is one the
flow has: every member the protocol names is a member of :class:`tablekit.flow.core.Flow`;
and the flow has no others (a member set that it does not have is an error)."""

from __future__ import annotations

import pytest

from tablekit.flow import Flow
from tablekit.flow.host import FlowState
from tablekit.game.session import Session


def test_the_flow_has_every_member_its_handlers_use(tmp_path):
    flow = Flow(Session.open(tmp_path / "game.jsonl"))
    try:
        assert isinstance(flow, FlowState)
    finally:
        flow.session.close()


def test_the_protocol_names_only_members_of_the_flow():
    members = {name for name in vars(FlowState) if not name.startswith("_")} | set(
        FlowState.__annotations__)
    assert members, "the protocol names the members"
    assert members <= set(vars(Flow)) | set(Flow.__dataclass_fields__)


def test_a_member_the_flow_does_not_have_cannot_be_set(tmp_path):
    flow = Flow(Session.open(tmp_path / "game.jsonl"))
    try:
        with pytest.raises(AttributeError):
            flow.message = "x"  # type: ignore[attr-defined]  # now flow.data.message
        assert flow.data.message == "" and not hasattr(flow, "message")
        flow.say("x")
        assert flow.data.message == "x"
    finally:
        flow.session.close()
