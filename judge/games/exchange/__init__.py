"""Exchange Payola (Payola rule 6.8): investors buy stock in the powers and elect their CEOs (rulings E1-E41)."""
