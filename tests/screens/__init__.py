"""Screens only the tests mount (never part of the product's route table in production)."""
