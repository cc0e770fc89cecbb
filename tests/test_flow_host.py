"""The stage handlers' view of the flow (:class:`tablekit.flow.host.FlowState`) is one the
flow has: every member the protocol names is a member of :class:`tablekit.flow.core.Flow`."""

from __future__ import annotations

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
