"""The package version, in the bottom layer so that any module may read it without importing the package."""

__version__ = "0.1.0"
