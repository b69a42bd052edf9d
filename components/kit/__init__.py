"""The UI kit: the pieces every screen is built from (DESIGN.md: "Screens are built from the kit").

Fields keep what was typed without a render per keystroke; buttons show a pending state; `QueryView`
gives one look to loading / error / empty / data; `Tabs` are WAI-ARIA tabs driven by the URL; `Dialog` is
the one modal; `ErrorSummary` lists a sent form's mistakes, each linked to its field; `DataTable` sorts and
pages (≤ 100 rows); `Chart` embeds a pygal SVG; `UserText` / `isolate` keep text people wrote
bidi-isolated; `frozen` holds markup that never changes (or only shows data) as one element, shared by
every tab. Browser-side behaviour (tab arrow keys, the dialog's focus trap, focus on mount, the error
summary's links) is in static/js/kit.js.
"""

from components.kit.buttons import Button
from components.kit.chart import Chart
from components.kit.dialog import Dialog, dialog_actions
from components.kit.display import Badge, StatCard, UserText, isolate
from components.kit.error_summary import ErrorLine, ErrorSummary
from components.kit.fields import Checkbox, Field, Select, TextArea, browser_field, browser_select, field_ids
from components.kit.pages import NewerOlderLinks, PageLinks, list_href, page_param
from components.kit.query_view import QueryLike, QueryView, empty_state, error_state, loading_state
from components.kit.static import frozen
from components.kit.table import MAX_PAGE_SIZE, Column, DataTable, clamp_page_size
from components.kit.tabs import TabPanel, Tabs, param_href, tab_ids

__all__ = [
    "MAX_PAGE_SIZE",
    "Badge",
    "Button",
    "Chart",
    "Checkbox",
    "Column",
    "DataTable",
    "Dialog",
    "ErrorLine",
    "ErrorSummary",
    "Field",
    "NewerOlderLinks",
    "PageLinks",
    "list_href",
    "page_param",
    "QueryLike",
    "QueryView",
    "Select",
    "StatCard",
    "TabPanel",
    "Tabs",
    "TextArea",
    "UserText",
    "browser_field",
    "browser_select",
    "clamp_page_size",
    "dialog_actions",
    "empty_state",
    "error_state",
    "field_ids",
    "frozen",
    "isolate",
    "loading_state",
    "param_href",
    "tab_ids",
]
