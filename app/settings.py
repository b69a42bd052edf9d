"""Settings read from the environment (and an optional `.env` file) with pydantic-settings."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
VAR_DIR = PROJECT_ROOT / "var"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore")

    database_url: str = Field(default_factory=lambda: f"sqlite:///{VAR_DIR / 'medivisit.db'}")
    brand_name: str = "MediVisit"
    smtp_url: str | None = None
    support_email: str = "support@medivisit.example"
    mail_from: str = "MediVisit <no-reply@medivisit.example>"
    app_env: Literal["development", "production"] = "development"
    var_dir: Path = VAR_DIR
    # Mounts /__test__/broken, a screen that raises, so the browser tests can check the error screen.
    medivisit_test_broken_screen: bool = False

    @property
    def is_production(self) -> bool:
        return self.app_env == "production"


@lru_cache
def get_settings() -> Settings:
    return Settings()
