"""The UI kit: the pieces every screen is built from (DESIGN.md: "Screens are built from the kit").

`ServerForm` is the form element the server checks; fields keep what was typed without a render per
keystroke; buttons show a pending state; `QueryView` gives one look to loading / error / empty / data;
`Tabs` are WAI-ARIA tabs driven by the URL; `Dialog` is the one modal; `ErrorSummary` lists a sent form's
mistakes, each linked to its field; `DataTable` sorts and pages (≤ 100 rows); `Chart` embeds a pygal SVG;
`UserText` / `isolate` keep text people wrote bidi-isolated; `frozen` holds markup that never changes
(or only shows data) as one element, shared by every tab. Browser-side behaviour (tab arrow keys, the dialog's focus trap, focus on mount, the error
summary's links) is in static/js/kit.js.

The page's frame pieces: `page_header` / `portal_header` / `page_title` (headers); `section` / `grid` /
`card` / `portal_page` / `portal_body` / `StaffCard` / `SettingsCard` (layout); `button_link` /
`mailto_href` (links); `button_row` (buttons); `hint` (display); `notice` / `sale_callout` / `cta_band` /
`coming_soon` (notices); `checklist` / `steps` / `chips` / `facts` (lists); `faq_item` / `faq_group` /
`faq_layout` (faq). The staff list screens share `ListQuery`, `StatusTabs`, `SearchForm`, `PagedItems`
and `form_error` (list_screen).

The screens' repeated shapes: `Region` (a part named by its own heading; region), `SettingsPanel` /
`settings_actions` (a settings card's lead and actions; settings), `breadcrumbs` / `detail_header` (a
detail page's trail and header band; breadcrumbs), `split` (two columns; split), `filter_actions` /
`pager` (browse), `file_button` / `file_input` / `upload_receiver` (a file uploaded once chosen; upload),
`member_item` (people), `stat_group` (stats), `bullets` (bullets) and `status_card` (status_card).

Public and signed-in pages: `public_page` (a public screen's header band, then its bands), `band`,
`feature_grid`, `faq_entry`, `titled_card`, `dashboard_header`, `auth_switch` (sign in / sign up's other
way), `back_link`, `link_list`, `no_results` (results), `status_pill` / `state_line`, `toggle_chip`,
`request_details`, `chat_message` / `chat_bubble` (chat) and `field_group` (a fieldset with its legend and
its error line; fieldset). Staff screens: `staff_screen` / `staff_row` / `staff_list` / `staff_empty` /
`pill` (staff_screen), `filter_form` (a list's GET filters), `shortcut_links`, `item_title` / `meta_line`.
"""

from components.kit.auth_switch import auth_switch
from components.kit.back_link import back_link
from components.kit.band import band
from components.kit.breadcrumbs import breadcrumbs, detail_header
from components.kit.browse import filter_actions, pager
from components.kit.bullets import bullets
from components.kit.buttons import Button, button_row
from components.kit.chart import Chart
from components.kit.chat import chat_bubble, chat_message
from components.kit.dashboard_header import dashboard_header
from components.kit.dialog import Dialog, dialog_actions
from components.kit.display import Badge, StatCard, Tone, UserText, hint, isolate
from components.kit.error_summary import ErrorLine, ErrorSummary
from components.kit.faq import faq_group, faq_item, faq_layout
from components.kit.faq_entry import faq_entry
from components.kit.feature_grid import feature_grid
from components.kit.fields import Checkbox, Field, Select, TextArea, browser_field, browser_select, field_ids
from components.kit.fieldset import field_group
from components.kit.filter_form import filter_form
from components.kit.form import ServerForm
from components.kit.headers import page_header, page_title, portal_header
from components.kit.item_title import item_title, meta_line
from components.kit.layout import SettingsCard, StaffCard, card, grid, portal_body, portal_page, section
from components.kit.link_list import link_list
from components.kit.links import button_link, mailto_href
from components.kit.list_screen import (
    ListQuery,
    PagedItems,
    SearchForm,
    StatusTabs,
    choice_param,
    form_error,
    text_param,
)
from components.kit.lists import checklist, chips, facts, steps
from components.kit.notices import coming_soon, cta_band, notice, sale_callout
from components.kit.pages import NewerOlderLinks, PageLinks, list_href, page_param
from components.kit.people import member_item
from components.kit.public_page import public_page
from components.kit.query_view import QueryLike, QueryView, empty_state, error_state, loading_state
from components.kit.region import Region
from components.kit.request_details import request_details
from components.kit.results import no_results
from components.kit.settings import SettingsPanel, settings_actions
from components.kit.shortcut_links import shortcut_links
from components.kit.split import split
from components.kit.staff_screen import pill, staff_empty, staff_list, staff_row, staff_screen
from components.kit.static import frozen
from components.kit.stats import stat_group
from components.kit.status_card import status_card
from components.kit.status_pill import state_line, status_pill
from components.kit.table import MAX_PAGE_SIZE, Column, DataTable, clamp_page_size
from components.kit.tabs import TabPanel, Tabs, param_href, tab_ids
from components.kit.titled_card import titled_card
from components.kit.toggle_chip import toggle_chip
from components.kit.upload import file_button, file_input, upload_receiver

__all__ = [
    "auth_switch",
    "back_link",
    "band",
    "titled_card",
    "chat_bubble",
    "chat_message",
    "dashboard_header",
    "faq_entry",
    "feature_grid",
    "field_group",
    "link_list",
    "public_page",
    "request_details",
    "no_results",
    "state_line",
    "status_pill",
    "toggle_chip",
    "filter_form",
    "shortcut_links",
    "item_title",
    "meta_line",
    "pill",
    "staff_empty",
    "staff_list",
    "staff_row",
    "staff_screen",
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
    "Region",
    "ServerForm",
    "ListQuery",
    "MAX_PAGE_SIZE",
    "NewerOlderLinks",
    "PageLinks",
    "PagedItems",
    "QueryLike",
    "QueryView",
    "SearchForm",
    "Select",
    "SettingsCard",
    "SettingsPanel",
    "StaffCard",
    "StatCard",
    "StatusTabs",
    "TabPanel",
    "Tabs",
    "TextArea",
    "Tone",
    "UserText",
    "breadcrumbs",
    "browser_field",
    "browser_select",
    "bullets",
    "button_link",
    "button_row",
    "card",
    "checklist",
    "chips",
    "choice_param",
    "clamp_page_size",
    "coming_soon",
    "cta_band",
    "detail_header",
    "dialog_actions",
    "empty_state",
    "error_state",
    "facts",
    "faq_group",
    "faq_item",
    "faq_layout",
    "field_ids",
    "file_button",
    "file_input",
    "filter_actions",
    "form_error",
    "frozen",
    "grid",
    "hint",
    "isolate",
    "list_href",
    "loading_state",
    "mailto_href",
    "member_item",
    "notice",
    "page_header",
    "page_param",
    "page_title",
    "pager",
    "param_href",
    "portal_body",
    "portal_header",
    "portal_page",
    "sale_callout",
    "section",
    "settings_actions",
    "split",
    "stat_group",
    "status_card",
    "steps",
    "tab_ids",
    "text_param",
    "upload_receiver",
]
