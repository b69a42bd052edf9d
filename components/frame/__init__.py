"""The site frame: navigation, mobile menus, footer, flash-sale banner, toasts, cart panel, bug report."""
