"""What an exception group from trio's nurseries holds: the terminal says one failure plainly."""

from __future__ import annotations

__all__ = ["leaves_of", "only_exception"]


def leaves_of(error: BaseException) -> list[BaseException]:
    """The exceptions ``error`` is made of: itself, or every one its groups hold, depth first."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in leaves_of(inner)]
    return [error]


def only_exception(group: BaseExceptionGroup) -> BaseException:
    """The single exception a group wraps (what setup or a node raised), else the group itself."""
    leaves = leaves_of(group)
    return leaves[0] if len(leaves) == 1 else group
