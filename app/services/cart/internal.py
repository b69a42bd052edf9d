"""The cart domain's internal commands: for jobs, the assembly and other domains, never for screens.

They take no actor (the caller has already decided who may act, or no one is acting: a job, a domain event);
the import contracts keep screens and HTTP routes out of this module.
"""

from app.services.cart._cart import empty_checked_out, get_cart, remove_items

__all__ = ["empty_checked_out", "get_cart", "remove_items"]
