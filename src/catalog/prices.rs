//! Typical prices: what a report prices its purchase lines with when the lab gives no price
//! list (`--prices`), each with where it was published and when it was read. Marked as typical
//! wherever shown. Only figures read from a published source are here; anything else stays
//! unpriced, and the report says so.
//!
//! - **Cloud instances**: on-demand Linux prices in AWS's US East (N. Virginia) region
//!   (`us-east-1`), USD per hour, from the AWS Price List API as the SkyPilot project copies it
//!   into `catalogs/v8/aws/vms.csv` (github:skypilot-org/skypilot-catalog, read at commit
//!   00148f2af3672e2229b4f7bf8157d5a3f36e3c35 on 2026-12-04; the `Price` column of the
//!   `us-east-1` rows). Other regions cost more (eu-west-1's g5.2xlarge is 1.35296).
//! - **Memory modules**: none. Module prices move weekly and differ by vendor and country; no
//!   dated, published list was found to cite, so module lines stay unpriced unless the lab's
//!   price file names them.

/// One typical price.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypicalPrice {
    /// The item as purchase lines name it (an instance type).
    pub item: &'static str,
    /// The price of one, in ten-thousandths of the currency (`1.212` is `12_120`).
    pub amount_e4: u64,
    /// The currency.
    pub currency: &'static str,
    /// True when per hour on demand, false when bought once.
    pub per_hour: bool,
    /// Where it was published, as an id the report words in each language
    /// ([`AWS_SOURCE`]).
    pub source: &'static str,
    /// When it was read, `YYYY-MM-DD`.
    pub date: &'static str,
}

/// Where the instance prices were read, as an id: AWS EC2 on-demand Linux prices in us-east-1,
/// from the AWS Price List API as copied in github:skypilot-org/skypilot-catalog
/// `catalogs/v8/aws/vms.csv` @00148f2 (the report's words: `lab_order.source_aws_us_east_1`).
pub const AWS_SOURCE: &str = "aws-us-east-1";

/// When they were read.
pub const AWS_DATE: &str = "2026-12-04";

const fn aws(item: &'static str, amount_e4: u64) -> TypicalPrice {
    TypicalPrice {
        item,
        amount_e4,
        currency: "USD",
        per_hour: true,
        source: AWS_SOURCE,
        date: AWS_DATE,
    }
}

/// The catalogue of typical prices: AWS instance types, USD per hour, read as above.
pub const TYPICAL: [TypicalPrice; 6] = [
    aws("g4dn.xlarge", 5_260),
    aws("g4dn.4xlarge", 12_040),
    aws("g5.2xlarge", 12_120),
    aws("g5.4xlarge", 16_240),
    aws("g5.8xlarge", 24_480),
    aws("g5.24xlarge", 81_440),
];
