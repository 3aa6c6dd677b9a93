"""Fields of the API's request bodies, stricter than DRF's own where its leniency would accept
what the published schema refuses."""

from rest_framework import serializers


class TextField(serializers.CharField):
    """A ``CharField`` that takes text only. DRF's turns a number into text (``{"name": 0}``
    would make a bot called "0"); the schema says a string, so a number is refused with DRF's
    "Not a valid string." A form's values are text already."""

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)
