# Nepali number and date formats (Django ships translations for ne, not formats).
# Numbers group the Nepali way, in lakhs and crores: 1,00,000 and 1,00,00,000.
# Digits stay 0-9 rather than ०-९: they match the phone keyboard the scores are
# typed on, and Nepali apps and banks show them that way.
DATE_FORMAT = "j F Y"
# A 24-hour clock, as the seat pages write a time: no "a.m." in Latin letters.
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "Y-m-d"
DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = (3, 2, 0)
