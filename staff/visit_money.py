"""The staff visit details' money section: the shared component (components/visit_money.py), which the
help-desk ticket of a visit mounts too; kept under this name for the staff screens that import it."""

from components.visit_money import (
    BAD_AMOUNT,
    MAX_AMOUNT,
    MAX_REASON,
    VisitMoney,
    money_view,
    parse_amount,
    refund_row,
)

__all__ = ["BAD_AMOUNT", "MAX_AMOUNT", "MAX_REASON", "VisitMoney", "money_view", "parse_amount", "refund_row"]
