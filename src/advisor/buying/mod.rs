//! What to buy, in one folder: the procurement section (what was set up needs, the published
//! rules' targets, the purchase that reaches them: [`procurement`]), the purchase for this kind
//! of machine (modules that fit its board, a larger cloud instance, a WSL limit to raise:
//! [`purchase`]), the catalogue's channel-filling module sets ([`dimm_sets`]), the add-RAM and
//! swap recommendations the planners attach to a plan that doesn't fit ([`ram_advice`]), and
//! the order for one machine or a fleet ([`order`]), and the lab's priced order with the
//! cheapest fix beside the rules' size ([`lab`]). Pure, like the rest of the advisor.

pub mod dimm_sets;
pub mod lab;
pub mod order;
pub mod procurement;
pub mod purchase;
pub mod ram_advice;
